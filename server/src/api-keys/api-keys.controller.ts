import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { ApiKeyCreatedResponse, ApiKeysResponse } from '@vigil/proto';
import { Auth, AuthUser, SessionOnly } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { CreateApiKeyDto } from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

/** Account routes: a session only (a key cannot mint or revoke keys), open to viewers for their own keys. */
@ApiTags('api-keys')
@ApiBearerAuth()
@SessionOnly()
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Reply()
  async list(@Auth() auth: AuthUser): Promise<Payload<ApiKeysResponse>> {
    return { keys: await this.keys.list(auth) };
  }

  @Post()
  @Reply('apiKeys.created')
  create(@Auth() auth: AuthUser, @Body() body: CreateApiKeyDto): Promise<Payload<ApiKeyCreatedResponse>> {
    return this.keys.create(auth, body);
  }

  @Delete(':id')
  @Reply('apiKeys.revoked')
  revoke(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.keys.revoke(auth, id);
  }
}
