import { Server, ServerCredentials, status, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  decodeHealthRequest,
  encodeHealthRequest,
  encodeHealthResponse,
  HEALTH_CHECK_PATH,
  SERVING_STATUSES,
} from '../../types/grpc/grpc.checker';
import type { TestCertificate } from './certificates.testing';

export type ServingStatus = (typeof SERVING_STATUSES)[number];

/** A loopback gRPC server (grpc-js) with a health service whose answers the test sets per service name. */
export interface FakeGrpcHealthServer {
  port: number;
  /** Service names asked, in order ('' = the server as a whole). */
  asked: string[];
  /** Sets what `Check` answers for `service`; a service never set answers NOT_FOUND, as the standard service does. */
  serve(service: string, servingStatus: ServingStatus): void;
  /** Makes every call wait this long before answering (0: at once). */
  delay(ms: number): void;
  close(): Promise<void>;
}

const definition: ServiceDefinition = {
  Check: {
    path: HEALTH_CHECK_PATH,
    requestStream: false,
    responseStream: false,
    originalName: 'check',
    requestSerialize: (request: { service: string }) => encodeHealthRequest(request.service),
    // An object, not the bare name: grpc-js takes a falsy message ('' for the whole server) for a missing one.
    requestDeserialize: (bytes: Buffer) => ({ service: decodeHealthRequest(bytes) ?? '' }),
    responseSerialize: (servingStatus: number) => encodeHealthResponse(servingStatus),
    responseDeserialize: (bytes: Buffer) => bytes,
  },
};

export async function startGrpcHealthServer(options: { tls?: TestCertificate } = {}): Promise<FakeGrpcHealthServer> {
  const statuses = new Map<string, ServingStatus>([['', 'SERVING']]);
  const asked: string[] = [];
  let delayMs = 0;
  const server = new Server();
  const implementation: UntypedServiceImplementation = {
    Check: (
      call: { request: { service: string } },
      callback: (error: { code: number; details: string } | null, answer?: number) => void,
    ) => {
      asked.push(call.request.service);
      const answer = () => {
        const servingStatus = statuses.get(call.request.service);
        if (servingStatus === undefined) callback({ code: status.NOT_FOUND, details: 'unknown service' });
        else callback(null, SERVING_STATUSES.indexOf(servingStatus));
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    },
  };
  server.addService(definition, implementation);
  const credentials = options.tls
    ? ServerCredentials.createSsl(null, [{ private_key: Buffer.from(options.tls.key), cert_chain: Buffer.from(options.tls.cert) }])
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    port,
    asked,
    serve: (service, servingStatus) => statuses.set(service, servingStatus),
    delay: (ms) => (delayMs = ms),
    close: async () => {
      server.forceShutdown();
    },
  };
}
