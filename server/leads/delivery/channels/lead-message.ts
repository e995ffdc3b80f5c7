// A stored lead as the delivery channels tell it: the same lines in the e-mail, the Telegram
// message and the webhook payload. Every visitor-typed value is escaped wherever HTML is made.
import { escapeHtml } from '../../../../src/format/escape-html'
import { formatDateTimeIn } from '../../../../src/format/format-date'
import { telLink } from '../../../../src/format/phone'
import { visitTagsText } from '../../../../src/lead/lead-source'
import { ADMIN_PATHS } from '../../../../src/site/paths'
import type { DeliverableLead } from '../../store/stored-lead'
import { linesHtml, linesText } from './lines-text'

/** The site a message speaks for. */
export interface MessageContext {
  /** The site's origin, for absolute links (PUBLIC_URL) */
  readonly publicUrl: string
  /** Where the owner reads the time (SITE_TIMEZONE) */
  readonly timeZone: string
}

/** One line of a lead message: a label, the text, and a link target when it has one. */
interface MessageLine {
  readonly label: string
  readonly text: string
  readonly href?: string
}

/** The page the lead was sent from, as an absolute URL on the site. */
export function sourcePageUrl(lead: DeliverableLead, ctx: MessageContext): string | null {
  return lead.sourceUrl ? `${ctx.publicUrl}${lead.sourceUrl}` : null
}

export function leadTime(lead: DeliverableLead, ctx: MessageContext): string {
  return `${formatDateTimeIn(lead.createdAt, ctx.timeZone)} (${ctx.timeZone})`
}

function messageLines(lead: DeliverableLead, ctx: MessageContext): MessageLine[] {
  const lines: MessageLine[] = [
    { label: 'Имя', text: lead.username },
    { label: 'Телефон', text: lead.phone, href: telLink(lead.phoneE164 ?? lead.phone) },
    { label: 'E-mail', text: lead.email, href: `mailto:${lead.email}` },
  ]
  const page = sourcePageUrl(lead, ctx)
  if (page) lines.push({ label: 'Страница', text: page, href: page })
  if (lead.productTitle) lines.push({ label: 'Товар', text: `${lead.productTitle} (№ ${lead.productId})` })
  const tags = visitTagsText(lead.utm)
  if (tags) lines.push({ label: 'Метки', text: tags })
  lines.push({ label: 'Время', text: leadTime(lead, ctx) })
  return lines
}

function messageTitle(lead: DeliverableLead): string {
  return `Новая заявка №${lead.id}`
}

/** What the lead asked for, as text lines under «Товары:» (none for a lead without lines). */
function orderedText(lead: DeliverableLead): string[] {
  const lines = linesText(lead.lines, lead.total)
  return lines.length > 0 ? ['', 'Товары:', ...lines] : []
}

/** Where a line's product is edited in the back office: it stays valid while the product exists. */
function productAdminUrl(ctx: MessageContext) {
  return (id: number) => `${ctx.publicUrl}${ADMIN_PATHS.record(id)}`
}

/** Plain text: the e-mail's text part. */
export function messageText(lead: DeliverableLead, ctx: MessageContext): string {
  const lines = messageLines(lead, ctx).map((line) => `${line.label}: ${line.text}`)
  return `${messageTitle(lead)}\n\n${[...lines, ...orderedText(lead)].join('\n')}\n`
}

/** The e-mail's HTML part: a small table, every value escaped. */
export function messageHtml(lead: DeliverableLead, ctx: MessageContext): string {
  const rows = messageLines(lead, ctx)
    .map((line) => {
      const text = escapeHtml(line.text)
      const value = line.href ? `<a href="${escapeHtml(line.href)}">${text}</a>` : text
      return `<tr><th align="left" style="padding:4px 12px 4px 0">${escapeHtml(line.label)}</th><td style="padding:4px 0">${value}</td></tr>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>${escapeHtml(messageTitle(lead))}</title></head>
<body style="font-family:Arial,sans-serif;font-size:15px">
<h2 style="font-size:18px">${escapeHtml(messageTitle(lead))}</h2>
<table cellspacing="0" cellpadding="0">
${rows}
</table>
${linesHtml(lead.lines, lead.total, productAdminUrl(ctx))}
</body></html>
`
}

/** Where the owner opens the lead in the back office, as an absolute URL. */
export function adminLeadUrl(lead: DeliverableLead, ctx: MessageContext): string {
  return `${ctx.publicUrl}${ADMIN_PATHS.lead(lead.id)}`
}

/**
 * The Telegram message without personal data (the default): the lead's number, the site, the page
 * and product it came from and a link to it in the back office; no name, phone, e-mail or tags.
 * Telegram's servers are abroad, and this text is all that crosses the border.
 */
export function messageTelegramPlainHtml(lead: DeliverableLead, ctx: MessageContext): string {
  const site = new URL(ctx.publicUrl).host
  const lines: string[] = []
  const page = sourcePageUrl(lead, ctx)
  if (page) lines.push(`<b>Страница:</b> <a href="${escapeHtml(page)}">${escapeHtml(page)}</a>`)
  if (lead.productTitle) lines.push(`<b>Товар:</b> ${escapeHtml(`${lead.productTitle} (№ ${lead.productId})`)}`)
  lines.push(`<b>Время:</b> ${escapeHtml(leadTime(lead, ctx))}`)
  lines.push(...telegramOrdered(lead))
  const admin = adminLeadUrl(lead, ctx)
  lines.push(`<a href="${escapeHtml(admin)}">Открыть заявку в панели управления</a>`)
  return `<b>${escapeHtml(`${messageTitle(lead)} с сайта ${site}`)}</b>\n${lines.join('\n')}`
}

/** Room for the lines in a Telegram message, which holds 4,096 characters in all. */
const TELEGRAM_LINES_BUDGET = 2500

/**
 * The lines under a bold «Товары:», escaped for the Bot API's HTML mode; past the message's room,
 * «…и ещё N» instead of the rest (the total always shows; the back office has every line).
 */
function telegramOrdered(lead: DeliverableLead): string[] {
  const lines = linesText(lead.lines, lead.total)
  if (lines.length === 0) return []
  const total = lines.pop()!
  const kept: string[] = []
  let used = 0
  for (const line of lines) {
    const html = escapeHtml(line)
    if (used + html.length > TELEGRAM_LINES_BUDGET) break
    kept.push(html)
    used += html.length + 1
  }
  if (kept.length < lines.length) kept.push(`…и ещё ${lines.length - kept.length}`)
  return ['<b>Товары:</b>', ...kept, escapeHtml(total)]
}

/**
 * The full Telegram message (TELEGRAM_FULL_TEXT=true) in the Bot API's HTML mode, which knows a few tags and the entities
 * &lt; &gt; &amp; &quot; and numeric ones. A phone link is not clickable in Telegram, so it is
 * plain text there (Telegram turns phone numbers into links itself).
 */
export function messageTelegramHtml(lead: DeliverableLead, ctx: MessageContext): string {
  const lines = messageLines(lead, ctx).map((line) => {
    const text = escapeHtml(line.text)
    const linked = line.href?.startsWith('http') ? `<a href="${escapeHtml(line.href)}">${text}</a>` : text
    return `<b>${escapeHtml(line.label)}:</b> ${linked}`
  })
  return `<b>${escapeHtml(messageTitle(lead))}</b>\n${[...lines, ...telegramOrdered(lead)].join('\n')}`
}
