import { Global, Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** Global: the credential resolver (auth) looks keys up on every request that presents one. */
@Global()
@Module({ controllers: [ApiKeysController], providers: [ApiKeysService, ApiKeysRepository], exports: [ApiKeysService] })
export class ApiKeysModule {}
