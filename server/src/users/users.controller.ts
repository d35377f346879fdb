import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ChangePasswordResponse, MESSAGES, MessageResponse, UserResponse, UsersPageResponse } from '@vigil/proto';
import { TokenService } from '../auth/token.service';
import { Auth, AuthUser, ClientIp, Roles } from '../common/decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto';
import { UsersService } from './users.service';

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
  async list(@Query() query: ListUsersQuery): Promise<UsersPageResponse> {
    return { success: true, ...(await this.users.list(query)) };
  }

  @Roles('admin')
  @Post()
  async create(@Body() body: CreateUserDto): Promise<UserResponse> {
    return { success: true, message: MESSAGES['users.created'], user: await this.users.create(body) };
  }

  @Get(':id')
  async get(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<UserResponse> {
    return { success: true, user: await this.users.get(auth, id) };
  }

  @Put(':id')
  async update(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number, @Body() body: UpdateUserDto): Promise<UserResponse> {
    return { success: true, message: MESSAGES['users.updated'], user: await this.users.update(auth, id, body) };
  }

  @Roles('admin')
  @Delete(':id')
  async remove(@Auth() auth: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<MessageResponse> {
    await this.users.remove(auth, id);
    return { success: true, message: MESSAGES['users.deleted'] };
  }

  /** Answers with a fresh token: the change invalidates every token issued before it, this session's included. */
  @Post(':id/change-password')
  @HttpCode(200)
  async changePassword(
    @Auth() auth: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: ChangePasswordDto,
    @ClientIp() address: string,
  ): Promise<ChangePasswordResponse> {
    const user = await this.users.changePassword(auth, id, body, address);
    return { success: true, message: MESSAGES['users.passwordChanged'], token: await this.tokens.issue(user) };
  }
}
