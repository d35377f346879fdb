import './app/styles/frame';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { BrowserRouter } from 'react-router-dom';
import { getStyleNonce } from './app/cspNonce';
import { FrameGuard } from './app/FrameGuard';
import { SessionBridge } from './app/SessionBridge';
import { theme } from './app/theme';
import { AppRoutes } from './routes/AppRoutes';

export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" getStyleNonce={getStyleNonce}>
      {/* Bottom corner: toasts never cover the navbar menus right after an action. */}
      <Notifications position="bottom-right" />
      <BrowserRouter>
        <FrameGuard />
        <SessionBridge />
        <AppRoutes />
      </BrowserRouter>
    </MantineProvider>
  );
}
