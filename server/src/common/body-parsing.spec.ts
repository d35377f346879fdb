import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { BodyLimit, BodyLimits } from './body-parsing';

@Controller('things')
class ThingsController {
  @BodyLimit('large')
  @Post()
  create(): void {}

  @BodyLimit('medium')
  @Post('test')
  test(): void {}

  @BodyLimit('page')
  @Put(':slug')
  save(): void {}

  @Post(':slug/pause')
  pause(): void {}

  @Get(':slug')
  read(): void {}

  @Delete(':slug')
  remove(): void {}
}

@Controller()
class RootController {
  @BodyLimit('selection')
  @Post('status/config')
  config(): void {}
}

describe('BodyLimits', () => {
  const sut = new BodyLimits([ThingsController, RootController]);

  it.each([
    ['POST', '/api/things', 'large'],
    ['POST', '/api/things/', 'large'],
    ['POST', '/api/things/test', 'medium'],
    ['PUT', '/api/things/acme', 'page'],
    ['PUT', '/API/Things/acme', 'page'],
    ['POST', '/api/things/acme/pause', 'default'],
    ['DELETE', '/api/things/acme', 'default'],
    ['POST', '/api/status/config', 'selection'],
    ['PUT', '/api/status/config', 'default'],
    ['POST', '/api/things/acme/extra/deep', 'default'],
    ['POST', '/api/some/new/route', 'default'],
  ])('gives %s %s the %s limit its route declared', (method, path, limit) => {
    expect(sut.for(method, path)).toBe(limit);
  });

  it('prefers a named route over a parameter in the same place', () => {
    expect(sut.for('POST', '/api/things/test')).toBe('medium');
  });
});
