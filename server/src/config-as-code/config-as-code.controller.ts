import { Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import { BODY_LIMITS, configDocumentJsonSchema, type ApplyResponse } from '@vigil/proto';
import type { Request, Response } from 'express';
import { BodyLimit } from '../common/body-parsing';
import { forbidden } from '../common/api-exception';
import { Auth, AuthUser, Roles } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { ApplyService } from './apply.service';
import { ApplyQuery, ExportQuery } from './config-as-code.dto';
import { readDocument } from './document-schema';
import { ExportService } from './export.service';
import { readTextBody } from './text-body';

/** Monitors as code (admins: a document holds every monitor's target and, when asked, the secrets). */
@ApiTags('config')
@ApiBearerAuth()
@Roles('admin')
@Controller()
export class ConfigAsCodeController {
  constructor(
    private readonly exporter: ExportService,
    private readonly applier: ApplyService,
  ) {}

  @Get('export')
  async export(@Query() query: ExportQuery, @Auth() auth: AuthUser, @Res({ passthrough: true }) res: Response): Promise<string> {
    // Secrets come back nowhere else in clear: a read key (handed to dashboards and scripts) may not ask for them.
    if (query.secrets && auth.apiKeyScope === 'read') throw forbidden('apiKeys.scope');
    const yaml = await this.exporter.yaml({ secrets: query.secrets ?? false });
    // Set on success only: a refusal keeps the JSON answer every error has.
    res.set({ 'Content-Type': 'application/yaml; charset=utf-8', 'Content-Disposition': 'attachment; filename="vigil.yaml"' });
    return yaml;
  }

  @Get('export/schema')
  @Header('Content-Type', 'application/schema+json; charset=utf-8')
  schema(): string {
    return JSON.stringify(configDocumentJsonSchema(), null, 2);
  }

  @Post('apply')
  @HttpCode(200)
  @BodyLimit('page')
  @ApiBody({ description: 'The YAML document (application/yaml or text/plain; JSON is YAML too)', schema: { type: 'string' } })
  @Reply('config.applied')
  async apply(@Query() query: ApplyQuery, @Req() req: Request): Promise<Payload<ApplyResponse>> {
    const text = await readTextBody(req, BODY_LIMITS.page.bytes);
    const doc = readDocument(text);
    const options = { prune: query.prune ?? false };
    const plan = query.dryRun ? await this.applier.plan(doc, options) : await this.applier.apply(doc, options);
    return { dryRun: query.dryRun ?? false, plan };
  }
}
