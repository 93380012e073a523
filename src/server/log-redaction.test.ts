import { describe, expect, it } from 'vitest';
import { redactSecrets } from './log-redaction.ts';

const token = 'Zk3uQ0b9x_Pa7-mN2cV8rT1yW4eH6jL5sD0fG9kA2qB';

describe('redactSecrets', () => {
  it.each([
    ['/reset-password/abc', '/reset-password/[redacted]'],
    [
      `/api/clients?access_token=bal_${token}&page=2`,
      '/api/clients?access_token=[redacted]&page=2',
    ],
    [`/join?invite=${token}`, '/join?invite=[redacted]'],
    [
      '/x?api_key=k1&session_id=s2&code=c3&q=ada',
      '/x?api_key=[redacted]&session_id=[redacted]&code=[redacted]&q=ada',
    ],
    [
      'connect postgres://balance:hunter2@db:5432/balance failed',
      'connect postgres://balance:[redacted]@db:5432/balance failed',
    ],
    [
      'smtps://mailer:p%40ss@mail.example.com:465',
      'smtps://mailer:[redacted]@mail.example.com:465',
    ],
    ['sent password=hunter2 by mistake', 'sent password=[redacted] by mistake'],
    [`Bearer bal_${token}`, 'Bearer bal_[redacted]'],
    [`/clients/${token}`, '/clients/[redacted]'],
  ])('takes the secret out of %s', (text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it.each([
    '/api/clients/inzpC2u4FWtScm0hkAVOQg/entries?sort=name&currency=KRW',
    'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    '/work/wt-logs-restore-health/node_modules/fastify/lib/route.js:123:45',
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'postgres://balance@db:5432/balance',
  ])('leaves %s as it is', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
