// A lead's lines as the owner reads them (docs/decisions/041-request-list.md): the same words in
// the e-mail's text and table, the Telegram message and the leads CSV. Prices are the ones copied
// when the lead was sent, shown as the site shows money («1 299,90 ₽»); a line without a price is
// «по запросу», and so is a total while any line is.
import { escapeHtml } from '../../../../src/format/escape-html'
import { formatMoney } from '../../../../src/format/money'
import { lineTitle, type LeadLine } from '../../store/lead-lines'

const ON_REQUEST = 'по запросу'

const money = (kopecks: number | null) => (kopecks === null ? ON_REQUEST : formatMoney(kopecks))

/** «Дрель ×2 = 25 980 ₽»: a line in one short phrase (the CSV's «Товары»). */
export function lineShort(line: LeadLine): string {
  return `${lineTitle(line)} ×${line.quantity} = ${money(line.sum)}`
}

/** «Дрель, арт. ЭИ-1003: 2 × 12 990 ₽ = 25 980 ₽»: a line with its артикул and unit price. */
export function lineFull(line: LeadLine): string {
  const article = line.article ? `, арт. ${line.article}` : ''
  const price =
    line.price === null
      ? `${line.quantity} шт., цена ${ON_REQUEST}`
      : `${line.quantity} × ${money(line.price)} = ${money(line.sum)}`
  return `${lineTitle(line)}${article}: ${price}`
}

/** The lead's total as shown: the amount, or «по запросу». */
export function totalText(total: number | null): string {
  return money(total)
}

/** The lines as numbered text lines and the total (the e-mail's text part, Telegram). */
export function linesText(lines: readonly LeadLine[], total: number | null): string[] {
  if (lines.length === 0) return []
  return [...lines.map((line, i) => `${i + 1}. ${lineFull(line)}`), `Итого: ${totalText(total)}`]
}

const cell = 'style="padding:4px 8px;border:1px solid #d0d7de"'

/** The lines as an HTML table for the e-mail, every text escaped. */
export function linesHtml(
  lines: readonly LeadLine[],
  total: number | null,
  productUrl: (id: number) => string,
): string {
  if (lines.length === 0) return ''
  const head = ['№', 'Товар', 'Артикул', 'Цена', 'Кол-во', 'Сумма']
    .map((title) => `<th align="left" ${cell}>${title}</th>`)
    .join('')
  const rows = lines.map((line, i) => {
    const title = `<a href="${escapeHtml(productUrl(line.productId))}">${escapeHtml(lineTitle(line))}</a>`
    const values = [String(i + 1), title, escapeHtml(line.article ?? ''), escapeHtml(money(line.price))]
    values.push(String(line.quantity), escapeHtml(money(line.sum)))
    return `<tr>${values.map((value) => `<td ${cell}>${value}</td>`).join('')}</tr>`
  })
  const totalRow = `<tr><th align="right" colspan="5" ${cell}>Итого</th><th align="left" ${cell}>${escapeHtml(totalText(total))}</th></tr>`
  return `<table cellspacing="0" cellpadding="0" style="border-collapse:collapse;margin-top:12px">
<tr>${head}</tr>
${rows.join('\n')}
${totalRow}
</table>`
}
