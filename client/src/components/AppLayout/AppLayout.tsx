import { Container } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Footer } from '../Footer/Footer';
import { Navbar } from '../Navbar/Navbar';
import { LoadingState } from '../PageState/PageState';
import classes from './AppLayout.module.css';

/** Page frame: the navbar, the routed screen and the footer. */
export function AppLayout() {
  return (
    <div className={classes.shell}>
      <Navbar />
      <Container component="main" size="xl" className={classes.main}>
        {/* Inside the frame, so the navbar stays put while a split-off screen downloads. */}
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </Container>
      <Footer />
    </div>
  );
}
