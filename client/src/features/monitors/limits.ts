import { useEffect, useState } from 'react';
import { monitorsApi } from './api';
import { DEFAULT_FORM_LIMITS, type MonitorFormLimits } from './form';

/** Read once per page load: they change only with the server's configuration. A failed read is tried again next time. */
let reading: Promise<MonitorFormLimits> | null = null;

/** This server's bounds for the monitor form (the shortest interval); proto's until the read answers. */
export function useMonitorLimits(): MonitorFormLimits {
  const [limits, setLimits] = useState(DEFAULT_FORM_LIMITS);
  useEffect(() => {
    let mounted = true;
    reading ??= monitorsApi.limits().then(
      ({ intervalMin }) => ({ intervalMin }),
      () => {
        reading = null;
        return DEFAULT_FORM_LIMITS;
      },
    );
    void reading.then((read) => {
      if (mounted) setLimits(read);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return limits;
}
