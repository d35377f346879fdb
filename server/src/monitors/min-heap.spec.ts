import { MinHeap } from './min-heap';

describe('MinHeap', () => {
  it('pops items in ascending order whatever order they were pushed in', () => {
    const sut = new MinHeap<number>((a, b) => a - b);
    const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    for (const value of values) sut.push(value);
    const popped: number[] = [];
    while (sut.size) popped.push(sut.pop()!);
    expect(popped).toEqual([...values].sort((a, b) => a - b));
    expect(sut.pop()).toBeUndefined();
  });
});
