import { Initial1763800000000 } from './1763800000000-initial';

/** Every migration, in order. Both the embedded and the external database run exactly these. */
export const MIGRATIONS = [Initial1763800000000];
