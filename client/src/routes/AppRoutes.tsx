import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AppLayout } from '../components/AppLayout/AppLayout';
import DashboardPage from '../pages/Dashboard.page';
import HomePage from '../pages/Home.page';
import LoginPage from '../pages/Login.page';
import { LoadingState } from '../components/PageState/PageState';
import NotFoundPage from '../pages/NotFound.page';
import RegisterPage from '../pages/Register.page';
import SsoLandingPage from '../pages/SsoLanding.page';
import { RequireAdmin, RequireAuth, RequireWrite } from './guards';
import { PATHS } from './paths';

// Screens other than the entry pages are split off, so visitors of one page download only what it needs.
const ProfilePage = lazy(() => import('../pages/Profile.page'));
const UsersPage = lazy(() => import('../pages/Users.page'));
const UserCreatePage = lazy(() => import('../pages/UserCreate.page'));
const UserEditPage = lazy(() => import('../pages/UserEdit.page'));
const MonitorsPage = lazy(() => import('../pages/Monitors.page'));
const MonitorCreatePage = lazy(() => import('../pages/MonitorCreate.page'));
const MonitorEditPage = lazy(() => import('../pages/MonitorEdit.page'));
const MonitorDetailPage = lazy(() => import('../pages/MonitorDetail.page'));
const AgentsPage = lazy(() => import('../pages/Agents.page'));
const AgentCreatePage = lazy(() => import('../pages/AgentCreate.page'));
const AgentEditPage = lazy(() => import('../pages/AgentEdit.page'));
const AgentDetailPage = lazy(() => import('../pages/AgentDetail.page'));
const StatusPage = lazy(() => import('../pages/Status.page'));
const StatusConfigPage = lazy(() => import('../pages/StatusConfig.page'));
const WallPage = lazy(() => import('../pages/Wall.page'));
const NotificationsPage = lazy(() => import('../pages/Notifications.page'));
const AuditPage = lazy(() => import('../pages/Audit.page'));
const AlertsPage = lazy(() => import('../pages/Alerts.page'));

/** The spec's route table (section 2) with its access rules. */
export function AppRoutes() {
  return (
    <Routes>
      {/* Full screen, without the navbar: a display key opens it without signing in (the page guards itself). */}
      <Route
        path={PATHS.wall}
        element={
          <Suspense fallback={<LoadingState />}>
            <WallPage />
          </Suspense>
        }
      />
      <Route element={<AppLayout />}>
        <Route path={PATHS.home} element={<HomePage />} />
        <Route path={PATHS.login} element={<LoginPage />} />
        <Route path={PATHS.ssoLanding} element={<SsoLandingPage />} />
        <Route path={PATHS.register} element={<RegisterPage />} />
        <Route path={PATHS.status} element={<StatusPage />} />

        <Route element={<RequireAuth />}>
          <Route path={PATHS.dashboard} element={<DashboardPage />} />
          <Route path={PATHS.profile} element={<ProfilePage />} />
          <Route path={PATHS.monitors} element={<MonitorsPage />} />
          <Route element={<RequireWrite fallback={PATHS.monitors} />}>
            <Route path={PATHS.monitorCreate} element={<MonitorCreatePage />} />
            <Route path={PATHS.monitorEdit} element={<MonitorEditPage />} />
          </Route>
          <Route path={PATHS.monitorDetail} element={<MonitorDetailPage />} />
          <Route path={PATHS.agents} element={<AgentsPage />} />
          <Route element={<RequireWrite fallback={PATHS.agents} />}>
            <Route path={PATHS.agentCreate} element={<AgentCreatePage />} />
            <Route path={PATHS.agentEdit} element={<AgentEditPage />} />
          </Route>
          <Route path={PATHS.agentDetail} element={<AgentDetailPage />} />
          <Route path={PATHS.alerts} element={<AlertsPage />} />
          <Route path={PATHS.statusConfig} element={<StatusConfigPage />} />
          <Route path={PATHS.notifications} element={<NotificationsPage />} />
        </Route>

        <Route element={<RequireAdmin />}>
          <Route path={PATHS.users} element={<UsersPage />} />
          <Route path={PATHS.userCreate} element={<UserCreatePage />} />
          <Route path={PATHS.userEdit} element={<UserEditPage />} />
          <Route path={PATHS.audit} element={<AuditPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
