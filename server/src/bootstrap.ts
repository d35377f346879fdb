import { INestApplication, Logger, type Type } from '@nestjs/common';
import { ModulesContainer, NestFactory, Reflector } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { BodyLimits, bodyErrorHandler, parseJsonBody } from './common/body-parsing';
import { trustFunction } from './common/client-address';
import { ReplyInterceptor } from './common/reply';
import { requestId } from './common/request-id';
import { createValidationPipe } from './common/validation';
import { AppConfig } from './config/config';
import { AccessLog } from './logging/access-log';
import { createLogs } from './logging/logger';
import { installPushLane, PUSH_PATH, pushOpenApi } from './monitors/push.route';
import { PushService } from './monitors/push.service';
import { RedisIoAdapter } from './realtime/redis-io.adapter';
import { REDIS, RedisHandle } from './redis/redis.module';
import { serveDownloads } from './web/serve-downloads';
import { serveClient } from './web/serve-client';
import { PageDirectory } from './status-pages/page-directory';
import { baseSecurityHeaders } from './web/security-headers';

/** Builds the whole application (API, sockets, client files) without listening, so tests can start it too. */
export async function createApp(config: AppConfig): Promise<INestApplication> {
  const logs = createLogs(config);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: logs.nest,
  });
  const accessLog = new AccessLog(logs.root);
  // X-Forwarded-For names the caller (login and push limits) only when sent by a proxy TRUST_PROXY names; never by default.
  const trust = trustFunction(config.trustProxy);
  app.set('trust proxy', trust);
  app.disable('x-powered-by');
  app.use(baseSecurityHeaders, requestId, accessLog.middleware);
  // Pushes are answered before socket.io, Express and Nest (a push's body is ignored); see push.route.ts.
  installPushLane(app.getHttpServer(), app.get(PushService), trust, accessLog);
  // Each route's own body limit (`@BodyLimit`), known before Nest routes the request.
  const controllers = [...app.get(ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
  );
  app.use(parseJsonBody(new BodyLimits(controllers)), bodyErrorHandler);
  app.setGlobalPrefix('api');
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(new ReplyInterceptor(app.get(Reflector)));
  app.enableShutdownHooks();
  const redis = app.get<RedisHandle | null>(REDIS);
  if (redis) app.useWebSocketAdapter(new RedisIoAdapter(app, redis));

  const document = SwaggerModule.createDocument(app, new DocumentBuilder().setTitle('Vigil API').setVersion('1').addBearerAuth().build());
  document.paths[`${PUSH_PATH}/{token}`] = pushOpenApi();
  SwaggerModule.setup('api/docs', app, document, { useGlobalPrefix: false });

  serveDownloads(app.getHttpAdapter().getInstance(), config.agentDir);
  serveClient(app.getHttpAdapter().getInstance(), config.clientDir, config.browser, app.get(PageDirectory));
  return app;
}

export async function listen(app: INestApplication, config: AppConfig): Promise<void> {
  await app.listen(config.port, config.host);
  new Logger('Vigil').log(`Listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
}
