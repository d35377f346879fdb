import { Module } from '@nestjs/common';
import { DisplayKeysRepository } from './display-keys.repository';
import { DisplayKeysService } from './display-keys.service';

@Module({ providers: [DisplayKeysService, DisplayKeysRepository], exports: [DisplayKeysService] })
export class DisplayKeysModule {}
