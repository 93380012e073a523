import { describe, expect, it } from 'vitest';
import { allocate, type LedgerLine } from './ageing.ts';

let next = 0;
const line = (amount: number, date: string, extra: Partial<LedgerLine> = {}): LedgerLine => ({
  id: (next += 1),
  amount,
  date,
  dueDate: null,
  voidOf: null,
  ...extra,
});

describe('allocate', () => {
  it('settles the oldest amounts owed first, by date, whatever order they were entered in', () => {
    const late = line(5_000, '2026-03-01', { dueDate: '2026-03-31' });
    const early = line(10_000, '2026-01-10');
    const payment = line(-12_000, '2026-02-01');
    const { open, oldestDue } = allocate([late, early, payment]);
    expect(open).toEqual(new Map([[late.id, 3_000]]));
    expect(oldestDue).toBe('2026-03-31');
  });

  it('leaves nothing open when more is paid than owed (the rest is a credit)', () => {
    const { open, oldestDue } = allocate([line(1_000, '2026-01-01'), line(-1_500, '2026-01-02')]);
    expect(open.size).toBe(0);
    expect(oldestDue).toBeNull();
  });

  it('lets a void and the entry it reverses cancel out', () => {
    const charge = line(4_000, '2026-01-01');
    const payment = line(-4_000, '2026-01-05');
    const bounced = line(4_000, '2026-01-09', { voidOf: payment.id });
    const { open, oldestDue } = allocate([charge, payment, bounced]);
    expect(open).toEqual(new Map([[charge.id, 4_000]]));
    expect(oldestDue).toBe('2026-01-01');
    const voidedCharge = line(-4_000, '2026-01-10', { voidOf: charge.id });
    expect(allocate([charge, payment, bounced, voidedCharge]).open.size).toBe(0);
  });

  it('keeps the open amounts adding up to the balance when it is above 0', () => {
    const lines = [
      line(700, '2026-01-01'),
      line(-200, '2026-01-02'),
      line(300, '2026-01-03', { dueDate: '2026-02-01' }),
      line(-50, '2026-01-04'),
      line(25, '2026-01-05'),
    ];
    const { open } = allocate(lines);
    const balance = lines.reduce((sum, entry) => sum + entry.amount, 0);
    expect([...open.values()].reduce((sum, value) => sum + value, 0)).toBe(balance);
    expect(open.get(lines[0]?.id ?? 0)).toBe(450);
  });

  it('pays the charges a payment names first, and the rest oldest first', () => {
    const old = line(10_000, '2026-01-01');
    const newer = line(5_000, '2026-02-01');
    const payment = line(-7_000, '2026-03-01');
    const targets = [{ paymentId: payment.id, chargeId: newer.id, amount: 5_000 }];
    expect(allocate([old, newer, payment], targets).open).toEqual(new Map([[old.id, 8_000]]));
    // A target takes at most what is still unpaid of its charge, and leaves out voided entries.
    const second = line(-1_000, '2026-03-02');
    const both = [...targets, { paymentId: second.id, chargeId: newer.id, amount: 1_000 }];
    expect(allocate([old, newer, payment, second], both).open).toEqual(new Map([[old.id, 7_000]]));
    const voidOfPayment = line(7_000, '2026-03-03', { voidOf: payment.id });
    expect(allocate([old, newer, payment, voidOfPayment], targets).open).toEqual(
      new Map([
        [old.id, 10_000],
        [newer.id, 5_000],
      ]),
    );
  });
});
