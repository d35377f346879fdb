import { create } from 'zustand';

export type ConnectionStatus = 'connecting' | 'connected' | 'offline';

/** State of the live socket; pages fall back to polling whenever it is not `connected`. */
export const useRealtimeStore = create<{ status: ConnectionStatus }>()(() => ({ status: 'connecting' }));
