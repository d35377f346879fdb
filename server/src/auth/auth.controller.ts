import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AuthStatusResponse, LoginResponse, MeResponse, MESSAGES, RegisterResponse } from '@vigil/proto';
import { Auth, AuthUser, ClientIp, Public } from '../common/decorators';
import { LoginDto, RegisterDto } from './auth.dto';
import { AuthService } from './auth.service';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  login(@Body() body: LoginDto, @ClientIp() ip: string): Promise<LoginResponse> {
    return this.auth.login(body, ip);
  }

  @Public()
  @Post('register')
  async register(@Body() body: RegisterDto): Promise<RegisterResponse> {
    return { success: true, message: MESSAGES['auth.registered'], user: await this.auth.register(body) };
  }

  /** Whether the first admin still has to be created and whether visitors may register. */
  @Public()
  @Get('status')
  status(): Promise<AuthStatusResponse> {
    return this.auth.status();
  }

  @ApiBearerAuth()
  @Get('me')
  async me(@Auth() auth: AuthUser): Promise<MeResponse> {
    return { success: true, user: await this.auth.me(auth.id) };
  }
}
