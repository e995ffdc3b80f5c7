import { describe, expect, it } from 'vitest'
import { readConfig } from '../config/config'
import { effectiveSettings, smtpServerOf, smtpUrlOf } from './effective-settings'
import { generatePassword, hashPassword, verifyPassword } from './secret-hash'

const stored = (values: Record<string, string>, version = 2) => ({ version, values: new Map(Object.entries(values)) })

describe('the settings in effect', () => {
  it('take the variable first, then the owner’s value, then the default', () => {
    const config = readConfig({ PORT: '3000', METRIKA_ID: '111' })
    const settings = effectiveSettings(config, stored({ 'metrika.id': '222', 'site.publicUrl': 'https://magazin.ru' }))
    expect(settings.metrikaId).toBe(111)
    expect(settings.publicUrl).toBe('https://magazin.ru')
    expect(settings.publicUrlSet).toBe(true)
    const bare = effectiveSettings(readConfig({ PORT: '3000' }), stored({}))
    expect([bare.publicUrl, bare.publicUrlSet, bare.metrikaId, bare.feeds.yandexFeed]).toEqual([
      'http://localhost:3000',
      false,
      null,
      false,
    ])
  })

  it('turn a channel on only when its settings are complete', () => {
    const config = readConfig({})
    const half = effectiveSettings(config, stored({ 'telegram.token': '1:abcdefghijklmnopqrstuvwxyz' }))
    expect(half.delivery.telegram).toBeNull()
    const email = effectiveSettings(
      config,
      stored({
        'email.server': 'smtp.yandex.ru:465',
        'email.login': 'shop@ya.ru',
        'email.password': 'p@ss:w',
        'email.from': 'shop@ya.ru',
        'email.to': 'a@b.ru, c@d.ru',
      }),
    ).delivery.email
    expect(email).toEqual({
      smtpUrl: 'smtps://shop%40ya.ru:p%40ss%3Aw@smtp.yandex.ru:465',
      from: 'shop@ya.ru',
      to: ['a@b.ru', 'c@d.ru'],
    })
  })

  it('name an SMTP server by host and port, 587 unless told, never showing the password', () => {
    expect(smtpUrlOf('mail.example.ru', '', '')).toBe('smtp://mail.example.ru:587')
    expect(smtpServerOf('smtps://shop%40ya.ru:secret@smtp.yandex.ru:465')).toEqual({
      server: 'smtp.yandex.ru:465',
      login: 'shop@ya.ru',
    })
  })

  it('check 1C’s password against its hash only', async () => {
    const password = generatePassword()
    const hash = await hashPassword(password)
    expect(hash).not.toContain(password)
    expect(await verifyPassword(password, hash)).toBe(true)
    expect(await verifyPassword(`${password}x`, hash)).toBe(false)
    const settings = effectiveSettings(
      readConfig({}),
      stored({ 'exchange.login': 'obmen1c', 'exchange.password': hash }),
    )
    expect(await settings.exchange1c?.verify(password)).toBe(true)
  })
})
