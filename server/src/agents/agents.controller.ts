import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  AgentEnrollResponse,
  AgentMetricsResponse,
  AgentResponse,
  AgentsResponse,
  AgentTokenResponse,
  MESSAGES,
  MessageResponse,
} from '@vigil/proto';
import { Auth, AuthUser, CheckedBody, Public } from '../common/decorators';
import type { CheckedBodyMessages } from '../common/validation';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { AgentMetricsQuery, ListAgentsQuery, UpdateAgentDto } from './agents.dto';
import { AgentsService } from './agents.service';

/** How the shared text rule names a refused field of an agent's own request. */
const AGENT_FIELDS: CheckedBodyMessages = { fields: { token: 'agent.tokenInvalid' }, otherwise: 'agent.messageInvalid' };

/** Agents are shared by every signed-in user (spec section 6); the routes agents call are public and token-checked. */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Post('token/generate')
  @HttpCode(200)
  async generateToken(@Auth() user: AuthUser): Promise<AgentTokenResponse> {
    return { success: true, ...(await this.agents.generateToken(user.id)) };
  }

  /** The Vigil agent's one-time exchange of a registration token for its credential. */
  @Public()
  @Post('enroll')
  @HttpCode(200)
  async enroll(@CheckedBody(AGENT_FIELDS) body: unknown): Promise<AgentEnrollResponse> {
    return { success: true, ...(await this.agents.enroll(body)) };
  }

  /** xugou agent compatibility: registration. */
  @Public()
  @Post('register')
  @HttpCode(200)
  async register(@CheckedBody(AGENT_FIELDS) body: unknown): Promise<AgentResponse> {
    return { success: true, message: MESSAGES['agents.registered'], agent: await this.agents.registerHttpAgent(body) };
  }

  /** xugou agent compatibility: one status report or a buffered array of them. */
  @Public()
  @Post('status')
  @HttpCode(200)
  async status(@CheckedBody(AGENT_FIELDS) body: unknown): Promise<MessageResponse> {
    await this.agents.reportHttpStatus(body);
    return { success: true, message: MESSAGES['agents.statusUpdated'] };
  }

  @Get()
  async list(@Query() query: ListAgentsQuery): Promise<AgentsResponse> {
    return { success: true, ...(await this.agents.list(query)) };
  }

  @Get(':id')
  async get(@Param('id', ParseIdPipe) id: number): Promise<AgentResponse> {
    return { success: true, agent: await this.agents.get(id) };
  }

  @Put(':id')
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateAgentDto): Promise<AgentResponse> {
    return { success: true, message: MESSAGES['agents.updated'], agent: await this.agents.rename(id, body.name) };
  }

  @Delete(':id')
  async remove(@Param('id', ParseIdPipe) id: number): Promise<MessageResponse> {
    await this.agents.remove(id);
    return { success: true, message: MESSAGES['agents.deleted'] };
  }

  @Get(':id/metrics')
  async metrics(@Param('id', ParseIdPipe) id: number, @Query() query: AgentMetricsQuery): Promise<AgentMetricsResponse> {
    return { success: true, metrics: await this.agents.metrics(id, query.range ?? '1h') };
  }
}
