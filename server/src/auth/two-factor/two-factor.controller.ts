import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { RecoveryCodesResponse, TwoFactorSetupResponse, TwoFactorStatusResponse } from '@vigil/proto';
import { Auth, AuthUser, ClientIp, Roles, SessionOnly } from '../../common/decorators';
import { ParseIdPipe } from '../../common/parse-id.pipe';
import { Payload, Reply } from '../../common/reply';
import { TwoFactorCodeDto, TwoFactorDisableDto } from './two-factor.dto';
import { TwoFactorService } from './two-factor.service';

/** Two-factor sign-in: the caller's own, and an admin's reset of another's. Account routes: a session only, never an API key. */
@ApiTags('auth')
@ApiBearerAuth()
@SessionOnly()
@Controller('auth/2fa')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @Reply()
  status(@Auth() auth: AuthUser): Promise<Payload<TwoFactorStatusResponse>> {
    return this.twoFactor.status(auth);
  }

  @Post('setup')
  @HttpCode(200)
  @Reply()
  setup(@Auth() auth: AuthUser): Promise<Payload<TwoFactorSetupResponse>> {
    return this.twoFactor.setup(auth);
  }

  @Post('enable')
  @HttpCode(200)
  @Reply('twoFactor.enabled')
  async enable(@Auth() auth: AuthUser, @Body() body: TwoFactorCodeDto): Promise<Payload<RecoveryCodesResponse>> {
    return { recoveryCodes: await this.twoFactor.enable(auth, body.code) };
  }

  @Post('disable')
  @HttpCode(200)
  @Reply('twoFactor.disabled')
  disable(@Auth() auth: AuthUser, @Body() body: TwoFactorDisableDto, @ClientIp() ip: string): Promise<void> {
    return this.twoFactor.disable(auth, body.password, body.code, ip);
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @Reply('twoFactor.recoveryCodesCreated')
  async regenerate(
    @Auth() auth: AuthUser,
    @Body() body: TwoFactorCodeDto,
    @ClientIp() ip: string,
  ): Promise<Payload<RecoveryCodesResponse>> {
    return { recoveryCodes: await this.twoFactor.regenerateRecoveryCodes(auth, body.code, ip) };
  }

  /** An admin turns another user's two-factor sign-in off (a lost phone and lost recovery codes); the user sets it up again. */
  @Roles('admin')
  @Delete('users/:id')
  @Reply('twoFactor.reset')
  reset(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.twoFactor.reset(id);
  }
}
