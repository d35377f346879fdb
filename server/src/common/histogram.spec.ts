import { Histogram } from './histogram';

describe('Histogram', () => {
  it('counts each duration in the first bucket whose bound it does not exceed, cumulatively', () => {
    const sut = new Histogram([10, 100]);
    for (const ms of [0, 10, 10.5, 100, 250]) sut.observe(ms);
    expect(sut.render('vigil_x_ms').split('\n')).toEqual([
      '# TYPE vigil_x_ms histogram',
      'vigil_x_ms_bucket{le="10"} 2',
      'vigil_x_ms_bucket{le="100"} 4',
      'vigil_x_ms_bucket{le="+Inf"} 5',
      'vigil_x_ms_sum 371',
      'vigil_x_ms_count 5',
    ]);
  });

  it('renders empty buckets before the first observation', () => {
    expect(new Histogram([1]).render('vigil_y_ms')).toContain('vigil_y_ms_bucket{le="1"} 0\nvigil_y_ms_bucket{le="+Inf"} 0');
  });
});
