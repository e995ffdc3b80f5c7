import { describe, expect, it } from 'vitest'
import { validateLead } from './validate-lead'

function aLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { username: 'Иван Петров', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true, ...overrides }
}

function errorsOf(value: unknown): Record<string, string> {
  const result = validateLead(value)
  if (result.ok) throw new Error('expected the lead to be rejected')
  return result.errors
}

// An e-mail-like string of exactly `length` characters (never valid past 254).
function emailOfLength(length: number): string {
  return `${'a'.repeat(length - '@mail.ru'.length)}@mail.ru`
}

describe('validateLead', () => {
  it('accepts a complete lead', () => {
    expect(validateLead(aLead())).toEqual({
      ok: true,
      lead: { username: 'Иван Петров', phone: '+7 (999) 123-45-67', email: 'ivan@example.ru', consent: true },
    })
  })

  it('accepts a Cyrillic e-mail address', () => {
    expect(validateLead(aLead({ email: 'иван@пример.рф' })).ok).toBe(true)
  })

  it('trims the surrounding spaces of an accepted lead', () => {
    const result = validateLead(aLead({ username: '  Иван  ', phone: ' 8 999 123-45-67 ' }))
    expect(result.ok && result.lead).toMatchObject({ username: 'Иван', phone: '8 999 123-45-67' })
  })

  it('keeps a phone that is not Russian', () => {
    expect(validateLead(aLead({ phone: '+44 20 7946 0958' })).ok).toBe(true)
    expect(validateLead(aLead({ phone: '+49 30 1234567' })).ok).toBe(true)
  })

  describe('a callable phone', () => {
    const INCOMPLETE = 'Номер телефона неполный: для России нужно 11 цифр, для других стран — от 10 до 15'

    it.each(['+7 (999) 123-45-67', '8 999 123 45 67', '79991234567', '+375 29 123-45-67', '+1 212 555 0100'])(
      'accepts %s',
      (phone) => {
        expect(validateLead(aLead({ phone })).ok).toBe(true)
      },
    )

    it.each([
      ['+7 (999) 123-45', 'a Russian number one digit short'],
      ['+7 (999) 123-45-678', 'a Russian number one digit long'],
      ['8 999 123 45', 'a Russian number with a habitual 8, short'],
      ['+44 20 7946', 'an international number with 9 digits'],
      ['+1 234 567 890 123 456', 'an international number with 16 digits'],
      ['звоните после 18:00', 'words instead of a number'],
    ])('refuses %s (%s) with the Russian message', (phone) => {
      expect(errorsOf(aLead({ phone }))).toEqual({ phone: INCOMPLETE })
    })
  })

  describe('username', () => {
    it('accepts 190 characters', () => {
      expect(validateLead(aLead({ username: 'я'.repeat(190) })).ok).toBe(true)
    })

    it('rejects 191 characters with «Не более 190 символов»', () => {
      expect(errorsOf(aLead({ username: 'я'.repeat(191) }))).toEqual({ username: 'Не более 190 символов' })
    })

    it('counts an emoji as one character, as a reader does', () => {
      expect(validateLead(aLead({ username: '😀'.repeat(190) })).ok).toBe(true)
    })
  })

  describe('phone', () => {
    it('accepts a long number written with many separators', () => {
      expect(validateLead(aLead({ phone: `+7${' '.repeat(380)}(999) 123-45-67` })).ok).toBe(true)
    })

    it('rejects 401 characters with «Не более 400 символов»', () => {
      expect(errorsOf(aLead({ phone: '9'.repeat(401) }))).toEqual({ phone: 'Не более 400 символов' })
    })
  })

  describe('email', () => {
    it('passes the 400-character limit at 400 and fails the format instead', () => {
      expect(errorsOf(aLead({ email: emailOfLength(400) }))).toEqual({ email: 'Некорректный адрес электронной почты' })
    })

    it('rejects 401 characters with «Не более 400 символов»', () => {
      expect(errorsOf(aLead({ email: emailOfLength(401) }))).toEqual({ email: 'Не более 400 символов' })
    })

    it('accepts a local part of 32 Cyrillic letters (64 bytes) and rejects 33 (66 bytes)', () => {
      expect(validateLead(aLead({ email: `${'я'.repeat(32)}@пример.рф` })).ok).toBe(true)
      expect(errorsOf(aLead({ email: `${'я'.repeat(33)}@пример.рф` }))).toEqual({
        email: 'Некорректный адрес электронной почты',
      })
    })

    it('rejects an address without @, with two @ or with a one-segment domain', () => {
      for (const email of ['ivan.example.ru', 'ivan@petrov@example.ru', 'a@localhost']) {
        expect(errorsOf(aLead({ email }))).toEqual({ email: 'Некорректный адрес электронной почты' })
      }
    })

    it('accepts a 63-character domain segment and rejects a 64-character one', () => {
      expect(validateLead(aLead({ email: `a@${'d'.repeat(63)}.ru` })).ok).toBe(true)
      expect(errorsOf(aLead({ email: `a@${'d'.repeat(64)}.ru` }))).toEqual({
        email: 'Некорректный адрес электронной почты',
      })
    })
  })

  describe('empty values', () => {
    for (const [name, value] of [
      ['an empty string', ''],
      ['a whitespace-only string', ' \t\n '],
      ['null', null],
    ] as const) {
      it(`reports «Поле обязательно» for ${name} in every text field`, () => {
        expect(errorsOf(aLead({ username: value, phone: value, email: value }))).toEqual({
          username: 'Поле обязательно',
          phone: 'Поле обязательно',
          email: 'Поле обязательно',
        })
      })
    }

    it('prefers «Поле обязательно» over the length limit for a long blank value', () => {
      expect(errorsOf(aLead({ username: ' '.repeat(191) }))).toEqual({ username: 'Поле обязательно' })
    })
  })

  describe('consent', () => {
    it('reports a missing consent', () => {
      const { consent: _, ...withoutConsent } = aLead()
      expect(errorsOf(withoutConsent)).toEqual({ consent: 'Поле обязательно' })
    })

    it('reports an unticked consent', () => {
      expect(errorsOf(aLead({ consent: false }))).toEqual({ consent: 'Поле обязательно' })
    })

    it('rejects a consent that is not a boolean', () => {
      expect(errorsOf(aLead({ consent: 'true' }))).toEqual({ consent: 'Значение должно быть «да» или «нет»' })
    })
  })

  it('rejects fields the form does not know, naming each one', () => {
    expect(errorsOf(aLead({ comment: 'Перезвоните', admin: true }))).toEqual({
      comment: 'Неизвестное поле недопустимо',
      admin: 'Неизвестное поле недопустимо',
    })
  })

  it('rejects the anti-spam transport fields, which are not part of a lead', () => {
    expect(errorsOf(aLead({ website: '', formStartedAt: 1 }))).toEqual({
      website: 'Неизвестное поле недопустимо',
      formStartedAt: 'Неизвестное поле недопустимо',
    })
  })

  it('reports every missing field at once for an empty object', () => {
    expect(errorsOf({})).toEqual({
      username: 'Поле обязательно',
      phone: 'Поле обязательно',
      email: 'Поле обязательно',
      consent: 'Поле обязательно',
    })
  })

  it('reports every failing field at once, whatever the reason', () => {
    expect(errorsOf({ username: 'я'.repeat(191), phone: '', email: 'a@localhost', consent: false, x: 1 })).toEqual({
      username: 'Не более 190 символов',
      phone: 'Поле обязательно',
      email: 'Некорректный адрес электронной почты',
      consent: 'Поле обязательно',
      x: 'Неизвестное поле недопустимо',
    })
  })

  it('rejects a value that is not an object under the root key', () => {
    expect(errorsOf(null)).toEqual({ _form: 'Значение должно быть объектом' })
    expect(errorsOf([])).toEqual({ _form: 'Значение должно быть объектом' })
    expect(errorsOf('lead')).toEqual({ _form: 'Значение должно быть объектом' })
  })

  it('rejects a JSON body with a __proto__ key without touching any prototype', () => {
    const errors = errorsOf(
      JSON.parse(
        '{"__proto__":{"polluted":true},"username":"a","phone":"+79991234567","email":"a@b.ru","consent":true}',
      ),
    )
    expect(Object.keys(errors)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not change the value it checks', () => {
    const value = aLead({ extra: 1 })
    const copy = structuredClone(value)
    validateLead(value)
    expect(value).toEqual(copy)
  })
})
