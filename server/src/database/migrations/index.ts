import { Initial1763800000000 } from './1763800000000-initial';
import { Monitors1763900000000 } from './1763900000000-monitors';
import { Agents1764000000000 } from './1764000000000-agents';
import { Status1764100000000 } from './1764100000000-status';
import { Notifications1764200000000 } from './1764200000000-notifications';
import { NotificationDelivery1764300000000 } from './1764300000000-notification-delivery';
import { MonitorTypes1764400000000 } from './1764400000000-monitor-types';
import { CertificateAlerts1764500000000 } from './1764500000000-certificate-alerts';
import { MonitorOutboundScope1764600000000 } from './1764600000000-monitor-outbound-scope';
import { RegistrationTokenHost1764700000000 } from './1764700000000-registration-token-host';
import { NotificationDeliveryId1764800000000 } from './1764800000000-notification-delivery-id';
import { NotificationTemplates1764920000000 } from './1764920000000-notification-templates';
import { WebPushSubscriptions1764940000000 } from './1764940000000-web-push-subscriptions';
import { ApiKeys1765000000000 } from './1765000000000-api-keys';
import { TwoFactor1765100000000 } from './1765100000000-two-factor';
import { SingleSignOn1765200000000 } from './1765200000000-single-sign-on';
import { AuditLog1765300000000 } from './1765300000000-audit-log';
import { MonitorStates1765400000000 } from './1765400000000-monitor-states';
import { GroupMonitors1765410000000 } from './1765410000000-group-monitors';
import { AlertEpisodes1765420000000 } from './1765420000000-alert-episodes';
import { StatusPages1765500000000 } from './1765500000000-status-pages';
import { Maintenance1765510000000 } from './1765510000000-maintenance';
import { Incidents1765520000000 } from './1765520000000-incidents';
import { StatusPageSubscriptions1765530000000 } from './1765530000000-status-page-subscriptions';
import { MonitorDaily1765540000000 } from './1765540000000-monitor-daily';

/** Every migration, in order. Both the embedded and the external database run exactly these. */
export const MIGRATIONS = [Initial1763800000000, Monitors1763900000000, Agents1764000000000, Status1764100000000, Notifications1764200000000, NotificationDelivery1764300000000, MonitorTypes1764400000000, CertificateAlerts1764500000000, MonitorOutboundScope1764600000000, RegistrationTokenHost1764700000000, NotificationDeliveryId1764800000000, NotificationTemplates1764920000000, WebPushSubscriptions1764940000000, ApiKeys1765000000000, TwoFactor1765100000000, SingleSignOn1765200000000, AuditLog1765300000000, MonitorStates1765400000000, GroupMonitors1765410000000, AlertEpisodes1765420000000, StatusPages1765500000000, Maintenance1765510000000, Incidents1765520000000, StatusPageSubscriptions1765530000000, MonitorDaily1765540000000];
