import { useTranslation } from 'react-i18next';
import { slotTone, SUMMARY_SLOTS, type UptimeSlot, uptimeSlots } from './slots';
import classes from './UptimeBar.module.css';

interface UptimeBarProps {
  /** Points oldest first; the bar shows the first `slots` of them. */
  points: readonly UptimeSlot[];
  slots?: number;
}

/**
 * A row of status dots, one per check, padded with empty slots to a fixed length so bars line up across cards.
 * Dots carry a native title rather than a tooltip component: a page of cards holds over a thousand of them.
 */
export function UptimeBar({ points, slots = SUMMARY_SLOTS }: UptimeBarProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className={classes.bar} role="img" aria-label={t('uptimeBar.label')} data-testid="uptime-bar">
      {uptimeSlots(points, slots).map((slot, index) => {
        const tone = slotTone(slot.status);
        const label = t(`uptimeBar.${tone}`);
        const time = slot.timestamp ? new Date(slot.timestamp) : null;
        const title = time && !Number.isNaN(time.getTime()) ? `${label} · ${time.toLocaleString(i18n.language)}` : label;
        return <span key={index} className={`${classes.dot} ${classes[tone]}`} title={title} data-status={tone} />;
      })}
    </div>
  );
}
