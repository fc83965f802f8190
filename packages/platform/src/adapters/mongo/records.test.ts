import { describe, expect, it } from 'vitest';
import { RecordCodec } from './records';

interface Thing {
  id: string;
  state: string;
  raw: Record<string, unknown>;
}

const codec = new RecordCodec<Thing>({ key: 'id', derived: (t) => ({ _open: t.state === 'open' }) });
const thing = (i: number): Thing => ({ id: `t_${i}`, state: i % 2 ? 'open' : 'closed', raw: { 'a.b': i } });

describe('RecordCodec', () => {
  it('stores a record as _id, its encoded fields, its derived fields and _rev', () => {
    expect(codec.stored(thing(1), 3)).toEqual({ _id: 't_1', state: 'open', raw: { 'a%2Eb': 1 }, _open: true, _rev: 3 });
    expect(codec.fromStored(codec.stored(thing(1), 3))).toEqual(thing(1));
  });
});
