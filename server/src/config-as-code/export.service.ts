import { Injectable } from '@nestjs/common';
import { CHANNEL_SPECS, ChannelType, ConfigDocument, isSecretField, MonitorType, typeSpec } from '@vigil/proto';
import { stringify } from 'yaml';
import { ConfigReader } from './config-reader';

/** `VIGIL_CHANNEL_<KEY>_<FIELD>`: the environment variable a placeholder names (the CLI fills it in where it runs). */
export function placeholderName(kind: 'CHANNEL' | 'MONITOR', key: string, field: string): string {
  const part = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .toUpperCase();
  return `VIGIL_${kind}_${part(key)}_${part(field)}`;
}

const placeholder = (name: string) => `\${${name}}`;

/** The document with every secret (the specs' secret fields) replaced by its placeholder. */
export function withPlaceholders(document: Required<ConfigDocument>): Required<ConfigDocument> {
  return {
    ...document,
    channels: document.channels.map((channel) => {
      const config = { ...channel.config };
      for (const field of CHANNEL_SPECS[channel.type as ChannelType]?.fields ?? []) {
        if (isSecretField(field) && config[field.name] !== undefined && config[field.name] !== null && config[field.name] !== '')
          config[field.name] = placeholder(placeholderName('CHANNEL', channel.key, field.name));
      }
      return { ...channel, config };
    }),
    monitors: document.monitors.map((monitor) => {
      const entry = { ...monitor };
      for (const field of typeSpec(monitor.type as MonitorType)?.fields ?? []) {
        if (isSecretField(field) && entry[field.name] !== undefined)
          entry[field.name] = placeholder(placeholderName('MONITOR', monitor.key, field.name));
      }
      return entry;
    }),
  };
}

/** `GET /api/export`: the install as one YAML document. */
@Injectable()
export class ExportService {
  constructor(private readonly reader: ConfigReader) {}

  async document(options: { secrets: boolean }): Promise<ConfigDocument> {
    const { document } = await this.reader.read();
    return options.secrets ? document : withPlaceholders(document);
  }

  async yaml(options: { secrets: boolean }): Promise<string> {
    return stringify(await this.document(options), { lineWidth: 0 });
  }
}
