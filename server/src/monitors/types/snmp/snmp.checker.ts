import { isIP } from 'node:net';
import * as snmp from 'net-snmp';
import { resolveAllowed, type OutboundGuards } from '../../../common/outbound';
import type { AddedCheckTarget, Checker, Endpoint, ProbeResult } from '../../checkers/checker';
import { failedProbe, ProbeFailure } from '../../checkers/failure';
import { withinTimeout } from '../../checkers/socket';
import { describeSnmpFailure, varbindText } from './snmp-value';

const SNMP_PORT = 161;

/** The settings the snmp spec validated (proto/src/type-specs/snmp.ts): defaults filled, secrets in clear. */
interface SnmpSettings {
  snmpVersion: '1' | '2c' | '3';
  snmpOid: string;
  radiusPassword?: string;
  snmpV3Username?: string;
  snmpV3AuthProtocol: keyof typeof snmp.AuthProtocols;
  snmpV3AuthKey?: string;
  snmpV3PrivProtocol: keyof typeof snmp.PrivProtocols;
  snmpV3PrivKey?: string;
}

/**
 * SNMP checks: one GET of the monitor's OID (v1/v2c with the community, v3 with its USM user), its value observed as
 * text for the `value` assertions. The agent's address is resolved and judged by the outbound policy first and the
 * session talks to that address only; the whole check, v3's engine discovery included, ends within the timeout.
 */
export class SnmpChecker implements Checker<'snmp'> {
  readonly type = 'snmp' as const;
  private readonly outbound: OutboundGuards;

  constructor(deps: { outbound: OutboundGuards }) {
    this.outbound = deps.outbound;
  }

  endpoint(target: AddedCheckTarget<'snmp'>): Endpoint {
    return { host: target.hostname, port: target.port ?? SNMP_PORT };
  }

  async check(target: AddedCheckTarget<'snmp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const timeoutMs = target.timeout * 1000;
    const settings = target.settings as unknown as SnmpSettings;
    const port = target.port ?? SNMP_PORT;
    let session: snmp.Session | null = null;
    try {
      const { address } = await withinTimeout(resolveAllowed(target.hostname, this.outbound.guard(target.scope), port), timeoutMs);
      const remainingMs = Math.max(1, timeoutMs - (performance.now() - started));
      session = openSession(address, port, settings, remainingMs);
      const varbinds = await withinTimeout(get(session, settings.snmpOid), remainingMs);
      const value = varbindText(settings.snmpOid, varbinds[0]);
      const responseTime = Math.round(performance.now() - started);
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed: { value } };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed: {}, timeoutSeconds: target.timeout }, describeSnmpFailure);
    } finally {
      // Closing cancels what is still waiting (a late answer finds nothing to call).
      session?.close();
    }
  }
}

/** A session to the agent's address: one try (the monitor's retries are the scheduler's), bounded by `timeoutMs`. */
function openSession(address: string, port: number, settings: SnmpSettings, timeoutMs: number): snmp.Session {
  const common = { port, retries: 0, timeout: timeoutMs, transport: isIP(address) === 6 ? 'udp6' : 'udp4' } as const;
  if (settings.snmpVersion !== '3') {
    const version = settings.snmpVersion === '1' ? snmp.Version1 : snmp.Version2c;
    return snmp.createSession(address, settings.radiusPassword ?? '', { ...common, version });
  }
  const auth = settings.snmpV3AuthProtocol !== 'none';
  const priv = auth && settings.snmpV3PrivProtocol !== 'none';
  const user: snmp.User = {
    name: settings.snmpV3Username ?? '',
    level: priv ? snmp.SecurityLevel.authPriv : auth ? snmp.SecurityLevel.authNoPriv : snmp.SecurityLevel.noAuthNoPriv,
    ...(auth && { authProtocol: snmp.AuthProtocols[settings.snmpV3AuthProtocol], authKey: settings.snmpV3AuthKey }),
    ...(priv && { privProtocol: snmp.PrivProtocols[settings.snmpV3PrivProtocol], privKey: settings.snmpV3PrivKey }),
  };
  return snmp.createV3Session(address, user, { ...common, version: snmp.Version3 });
}

/**
 * The varbinds of one GET. An answer net-snmp cannot read arrives as the session's `error` event (unheard, it would
 * throw out of the socket's handler): it fails the check at once, named.
 */
function get(session: snmp.Session, oid: string): Promise<snmp.Varbind[]> {
  return new Promise((resolve, reject) => {
    session.on('error', (error: Error) => reject(new ProbeFailure(`Unreadable SNMP answer: ${error.message.slice(0, 200)}`)));
    session.get([oid], (error, varbinds) => (error ? reject(error) : resolve(varbinds ?? [])));
  });
}
