import { Module } from '@nestjs/common';
import { DisplayKeysService } from './display-keys.service';

@Module({ providers: [DisplayKeysService], exports: [DisplayKeysService] })
export class DisplayKeysModule {}
