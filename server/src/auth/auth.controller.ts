import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthStatusResponse, LoginResponse, MeResponse, RegisterResponse } from '@vigil/proto';
import { Auth, AuthUser, ClientIp, Public } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { LoginDto, RegisterDto } from './auth.dto';
import { AuthService } from './auth.service';
import { BodyLimit } from '../common/body-parsing';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @BodyLimit('credentials')
  @Post('login')
  @HttpCode(200)
  @Reply('auth.loginSuccess')
  login(@Body() body: LoginDto, @ClientIp() ip: string): Promise<Payload<LoginResponse>> {
    return this.auth.login(body, ip);
  }

  @Public()
  @BodyLimit('account')
  @Post('register')
  @Reply('auth.registered')
  async register(@Body() body: RegisterDto, @ClientIp() ip: string): Promise<Payload<RegisterResponse>> {
    return { user: await this.auth.register(body, ip) };
  }

  /** Whether the first admin still has to be created and whether visitors may register. */
  @Public()
  @Get('status')
  @Reply()
  status(): Promise<Payload<AuthStatusResponse>> {
    return this.auth.status();
  }

  @ApiBearerAuth()
  @Get('me')
  @Reply()
  me(@Auth() auth: AuthUser): Promise<Payload<MeResponse>> {
    return this.auth.me(auth.id);
  }
}
