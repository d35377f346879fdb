import { Container } from '@mantine/core';
import { Outlet } from 'react-router-dom';
import { Footer } from '../Footer/Footer';
import { Navbar } from '../Navbar/Navbar';
import classes from './AppLayout.module.css';

/** Page frame: the navbar, the routed screen and the footer. */
export function AppLayout() {
  return (
    <div className={classes.shell}>
      <Navbar />
      <Container component="main" size="xl" className={classes.main}>
        <Outlet />
      </Container>
      <Footer />
    </div>
  );
}
