import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { ChangePasswordResponse, UserResponse, UsersPageResponse } from '@vigil/proto';
import { TokenService } from '../auth/token.service';
import { Auth, AuthUser, ClientIp, Roles, SessionOnly } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto';
import { UsersService } from './users.service';
import { BodyLimit } from '../common/body-parsing';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokenService,
  ) {}

  @Roles('admin')
  @Get()
  @Reply()
  list(@Query() query: ListUsersQuery): Promise<Payload<UsersPageResponse>> {
    return this.users.list(query);
  }

  @Roles('admin')
  @BodyLimit('account')
  @Post()
  @Reply('users.created')
  async create(@Body() body: CreateUserDto): Promise<Payload<UserResponse>> {
    return { user: await this.users.create(body) };
  }

  @Get(':id')
  @Reply()
  async get(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<Payload<UserResponse>> {
    return { user: await this.users.get(auth, id) };
  }

  /** An account route (a profile, or an admin setting a role or password): a session only, so no key can. */
  @SessionOnly()
  @BodyLimit('account')
  @Put(':id')
  @Reply('users.updated')
  async update(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number, @Body() body: UpdateUserDto): Promise<Payload<UserResponse>> {
    return { user: await this.users.update(auth, id, body) };
  }

  @Roles('admin')
  @Delete(':id')
  @Reply('users.deleted')
  remove(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.users.remove(auth, id);
  }

  /** Answers with a fresh token: the change invalidates every token issued before it, this session's included. */
  @SessionOnly()
  @BodyLimit('account')
  @Post(':id/change-password')
  @HttpCode(200)
  @Reply('users.passwordChanged')
  async changePassword(
    @Auth() auth: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: ChangePasswordDto,
    @ClientIp() address: string,
  ): Promise<Payload<ChangePasswordResponse>> {
    const user = await this.users.changePassword(auth, id, body, address);
    return { token: await this.tokens.issue(user) };
  }
}
