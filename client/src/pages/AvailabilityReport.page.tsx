import { AvailabilityReport } from '../features/exports/components/AvailabilityReport';

/** The monthly availability report (issue 34): any signed-in user may read it, as they read monitors. */
export default function AvailabilityReportPage() {
  return <AvailabilityReport />;
}
