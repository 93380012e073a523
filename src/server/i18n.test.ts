import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../tests/app.ts';
import { joinAs } from '../../tests/auth.ts';
import { buildClient, buildExportFile } from '../../tests/factories.ts';
import { exportVersion } from '../shared/schemas/restore.ts';

describe('errors in the language of the request', () => {
  let testApp: TestApp;
  let cookie: string;
  beforeAll(async () => {
    testApp = await buildTestApp();
    ({ cookie } = await joinAs(testApp.app));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const send = (
    method: 'GET' | 'POST',
    url: string,
    language: string | undefined,
    payload?: object,
    withCookie = true,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: {
        ...(withCookie ? { cookie } : {}),
        ...(language ? { 'accept-language': language } : {}),
      },
      ...(payload ? { payload } : {}),
    });

  const badClient = buildClient({ firstName: 'x'.repeat(101), currency: 'XYZ' as 'KRW' });

  it.each([
    [
      undefined,
      'Invalid firstName, currency',
      { firstName: 'Use at most 100 characters.', currency: 'Choose a currency.' },
    ],
    [
      'ko-KR,ko;q=0.9,en;q=0.8',
      '잘못된 값: firstName, currency',
      { firstName: '100자 이하로 입력하세요.', currency: '통화를 선택하세요.' },
    ],
    [
      'ms-MY',
      'Tidak sah: firstName, currency',
      { firstName: 'Gunakan paling banyak 100 aksara.', currency: 'Pilih mata wang.' },
    ],
  ])('a form the schema refuses, asked in %s', async (language, message, fields) => {
    const response = await send('POST', '/api/clients', language, badClient);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'validation', message, fields } });
  });

  it.each([
    [undefined, 'Client not found', 'You are not signed in, or your session has ended'],
    ['ko-KR', '고객을 찾을 수 없습니다', '로그인하지 않았거나 세션이 만료되었습니다'],
    ['ms-MY', 'Pelanggan tidak ditemui', 'Anda belum log masuk, atau sesi anda telah tamat'],
  ])('an error a route throws, asked in %s', async (language, notFound, signedOut) => {
    const missing = await send('GET', '/api/clients/no-such-client', language);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: notFound } });
    const anonymous = await send('GET', '/api/clients', language, undefined, false);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<{ error: { message: string } }>().error.message).toBe(signedOut);
  });

  it.each([
    [
      undefined,
      `This file cannot be restored: version: the file is export version 99, written by a newer Balance; this one reads up to version ${exportVersion}.`,
    ],
    [
      'ko',
      `이 파일은 복원할 수 없습니다: version: 이 파일은 더 새로운 Balance에서 만든 내보내기 버전 99입니다. 이 Balance는 버전 ${exportVersion}까지 읽을 수 있습니다.`,
    ],
  ])(
    'a message with values filled in after translating, asked in %s',
    async (language, message) => {
      const response = await send('POST', '/api/restore', language, {
        ...buildExportFile(),
        version: 99,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(message);
    },
  );

  it.each([
    [
      undefined,
      'The request body is not valid JSON',
      'This kind of request body is not accepted here; send JSON',
    ],
    [
      'ko-KR',
      '요청 본문이 올바른 JSON이 아닙니다',
      '이 형식의 요청 본문은 여기서 받지 않습니다. JSON으로 보내세요',
    ],
    [
      'ms-MY',
      'Badan permintaan bukan JSON yang sah',
      'Jenis badan permintaan ini tidak diterima di sini; sila hantar JSON',
    ],
  ])('a body Fastify itself refuses, asked in %s', async (language, badJson, badType) => {
    const postRaw = (contentType: string, payload: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: {
          cookie,
          'content-type': contentType,
          ...(language ? { 'accept-language': language } : {}),
        },
        payload,
      });
    const malformed = await postRaw('application/json', '{"firstName":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'validation', message: badJson } });
    const form = await postRaw('application/x-www-form-urlencoded', 'firstName=Ann');
    expect(form.statusCode).toBe(415);
    expect(form.json()).toEqual({ error: { code: 'validation', message: badType } });
  });

  it.each([
    [
      undefined,
      'The address of the request is too long',
      'The address of the request is not valid',
    ],
    ['ko-KR', '요청 주소가 너무 깁니다', '요청 주소가 올바르지 않습니다'],
    ['ms-MY', 'Alamat permintaan terlalu panjang', 'Alamat permintaan tidak sah'],
  ])('an address the router itself refuses, asked in %s', async (language, tooLong, malformed) => {
    const long = await send('GET', `/api/clients/${'a'.repeat(200)}`, language);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ error: { code: 'validation', message: tooLong } });
    const broken = await send('GET', '/api/clients/%E0%A4%A', language);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: { code: 'validation', message: malformed } });
  });

  it('a language Balance does not speak gets English', async () => {
    const response = await send('GET', '/api/clients/no-such-client', 'fr-FR,de;q=0.8');
    expect(response.json<{ error: { message: string } }>().error.message).toBe('Client not found');
  });

  it('a check without a message of ours is said in zod’s words for the language', async () => {
    const { firstName: _omitted, ...withoutName } = buildClient();
    const response = await send('POST', '/api/clients', 'ko-KR', withoutName);
    expect(response.statusCode).toBe(400);
    const { fields } = response.json<{ error: { fields: Record<string, string> } }>().error;
    expect(fields.firstName).toMatch(/[\uAC00-\uD7A3]/);
  });
});
