import { ignoreTls, setting, type TargetBuilder } from '../check-target';

export const websocketTarget: TargetBuilder<'websocket'> = (row, base) => ({
  ...base,
  type: 'websocket',
  url: row.url,
  message: setting<string | null>(row, 'message', null),
  ignoreTls: ignoreTls(row),
});
