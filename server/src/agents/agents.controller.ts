import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type {
  AgentDevicesResponse,
  AgentEnrollResponse,
  AgentInsightResponse,
  AgentMetricsResponse,
  AgentResponse,
  AgentsResponse,
  AgentTokenResponse,
} from '@vigil/proto';
import { Auth, AuthUser, CheckedBody, ClientIp, Public } from '../common/decorators';
import type { CheckedBodyMessages } from '../common/validation';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { Payload, Reply } from '../common/reply';
import { AgentDevicesQuery, AgentMetricsQuery, ListAgentsQuery, UpdateAgentDto } from './agents.dto';
import { AgentsService } from './agents.service';
import { BodyLimit } from '../common/body-parsing';

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
  @Reply('agents.tokenGenerated')
  generateToken(@Auth() user: AuthUser): Promise<Payload<AgentTokenResponse>> {
    return this.agents.generateToken(user.id);
  }

  /** The Vigil agent's one-time exchange of a registration token for its credential. */
  @Public()
  @BodyLimit('medium')
  @Post('enroll')
  @HttpCode(200)
  @Reply()
  enroll(@CheckedBody(AGENT_FIELDS) body: unknown, @ClientIp() ip: string): Promise<Payload<AgentEnrollResponse>> {
    return this.agents.enroll(body, ip);
  }

  /** xugou agent compatibility: registration. */
  @Public()
  @BodyLimit('medium')
  @Post('register')
  @HttpCode(200)
  @Reply('agents.registered')
  async register(@CheckedBody(AGENT_FIELDS) body: unknown, @ClientIp() ip: string): Promise<Payload<AgentResponse>> {
    return { agent: await this.agents.registerHttpAgent(body, ip) };
  }

  /** xugou agent compatibility: one status report or a buffered array of them. */
  @Public()
  @BodyLimit('large')
  @Post('status')
  @HttpCode(200)
  @Reply('agents.statusUpdated')
  status(@CheckedBody(AGENT_FIELDS) body: unknown, @ClientIp() ip: string): Promise<void> {
    return this.agents.reportHttpStatus(body, ip);
  }

  @Get()
  @Reply()
  list(@Query() query: ListAgentsQuery): Promise<Payload<AgentsResponse>> {
    return this.agents.list(query);
  }

  @Get(':id')
  @Reply()
  async get(@Param('id', ParseIdPipe) id: number): Promise<Payload<AgentResponse>> {
    return { agent: await this.agents.get(id) };
  }

  @Put(':id')
  @Reply('agents.updated')
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateAgentDto): Promise<Payload<AgentResponse>> {
    return { agent: await this.agents.update(id, body) };
  }

  @Delete(':id')
  @Reply('agents.deleted')
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.agents.remove(id);
  }

  /** Containers, temperatures, per-disk I/O and services (protocol 2 agents), for the agent's detail page. */
  @Get(':id/insight')
  @Reply()
  async insight(@Param('id', ParseIdPipe) id: number): Promise<Payload<AgentInsightResponse>> {
    return { insight: await this.agents.insight(id) };
  }

  /** Per-disk I/O, per-interface traffic or per-sensor temperature history, one series per device. */
  @Get(':id/devices')
  @Reply()
  async devices(@Param('id', ParseIdPipe) id: number, @Query() query: AgentDevicesQuery): Promise<Payload<AgentDevicesResponse>> {
    return { devices: await this.agents.devices(id, query.kind, query.range ?? '1h') };
  }

  @Get(':id/metrics')
  @Reply()
  async metrics(@Param('id', ParseIdPipe) id: number, @Query() query: AgentMetricsQuery): Promise<Payload<AgentMetricsResponse>> {
    return { metrics: await this.agents.metrics(id, query.range ?? '1h') };
  }
}
