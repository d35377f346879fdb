import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { AppLayout } from '../components/AppLayout/AppLayout';
import HomePage from '../pages/Home.page';
import { LoadingState } from '../components/PageState/PageState';
import { RequireAdmin, RequireAuth, RequireWrite } from './guards';
import { lazyScreen } from './lazyScreen';
import { PATHS } from './paths';

// Every screen but the home page is split off (AppLayout's Suspense shows the frame meanwhile), so the first download
// is the frame alone and visitors of one page fetch only what it needs.
const DashboardPage = lazyScreen(() => import('../pages/Dashboard.page'));
const LoginPage = lazyScreen(() => import('../pages/Login.page'));
const RegisterPage = lazyScreen(() => import('../pages/Register.page'));
const SsoLandingPage = lazyScreen(() => import('../pages/SsoLanding.page'));
const NotFoundPage = lazyScreen(() => import('../pages/NotFound.page'));
const ProfilePage = lazyScreen(() => import('../pages/Profile.page'));
const UsersPage = lazyScreen(() => import('../pages/Users.page'));
const UserCreatePage = lazyScreen(() => import('../pages/UserCreate.page'));
const UserEditPage = lazyScreen(() => import('../pages/UserEdit.page'));
const MonitorsPage = lazyScreen(() => import('../pages/Monitors.page'));
const MonitorCreatePage = lazyScreen(() => import('../pages/MonitorCreate.page'));
const MonitorEditPage = lazyScreen(() => import('../pages/MonitorEdit.page'));
const MonitorDetailPage = lazyScreen(() => import('../pages/MonitorDetail.page'));
const AgentsPage = lazyScreen(() => import('../pages/Agents.page'));
const AgentCreatePage = lazyScreen(() => import('../pages/AgentCreate.page'));
const AgentEditPage = lazyScreen(() => import('../pages/AgentEdit.page'));
const AgentDetailPage = lazyScreen(() => import('../pages/AgentDetail.page'));
const StatusConfigPage = lazyScreen(() => import('../pages/StatusConfig.page'));
const WallPage = lazyScreen(() => import('../pages/Wall.page'));
const NotificationsPage = lazyScreen(() => import('../pages/Notifications.page'));
const AuditPage = lazyScreen(() => import('../pages/Audit.page'));
const AlertsPage = lazyScreen(() => import('../pages/Alerts.page'));
const StatusPagesPage = lazyScreen(() => import('../pages/StatusPages.page'));
const StatusPageEditPage = lazyScreen(() => import('../pages/StatusPageEdit.page'));
const IncidentsPage = lazyScreen(() => import('../pages/Incidents.page'));
const IncidentCreatePage = lazyScreen(() => import('../pages/IncidentCreate.page'));
const IncidentDetailPage = lazyScreen(() => import('../pages/IncidentDetail.page'));
const IncidentEditPage = lazyScreen(() => import('../pages/IncidentEdit.page'));
const MaintenancePage = lazyScreen(() => import('../pages/Maintenance.page'));
const MaintenanceEditPage = lazyScreen(() => import('../pages/MaintenanceEdit.page'));
const AvailabilityReportPage = lazyScreen(() => import('../pages/AvailabilityReport.page'));
const KumaImportPage = lazyScreen(() => import('../pages/KumaImport.page'));

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
          <Route path={PATHS.statusPages} element={<StatusPagesPage />} />
          <Route path={PATHS.incidents} element={<IncidentsPage />} />
          <Route path={PATHS.incidentDetail} element={<IncidentDetailPage />} />
          <Route path={PATHS.maintenance} element={<MaintenancePage />} />
          <Route path={PATHS.availabilityReport} element={<AvailabilityReportPage />} />
          <Route element={<RequireWrite fallback={PATHS.statusPages} />}>
            <Route path={PATHS.statusPageCreate} element={<StatusPageEditPage />} />
            <Route path={PATHS.statusPageEdit} element={<StatusPageEditPage />} />
          </Route>
          <Route element={<RequireWrite fallback={PATHS.incidents} />}>
            <Route path={PATHS.incidentCreate} element={<IncidentCreatePage />} />
            <Route path={PATHS.incidentEdit} element={<IncidentEditPage />} />
          </Route>
          <Route element={<RequireWrite fallback={PATHS.maintenance} />}>
            <Route path={PATHS.maintenanceCreate} element={<MaintenanceEditPage />} />
            <Route path={PATHS.maintenanceEdit} element={<MaintenanceEditPage />} />
          </Route>
        </Route>

        <Route element={<RequireAdmin />}>
          <Route path={PATHS.users} element={<UsersPage />} />
          <Route path={PATHS.userCreate} element={<UserCreatePage />} />
          <Route path={PATHS.userEdit} element={<UserEditPage />} />
          <Route path={PATHS.audit} element={<AuditPage />} />
          <Route path={PATHS.kumaImport} element={<KumaImportPage />} />
        </Route>

        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
