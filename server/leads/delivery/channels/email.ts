// E-mail over SMTP with nodemailer: one message per lead to every LEAD_EMAIL_TO address, From the
// site's own address (a visitor's From would be marked as spam), Reply-To the visitor, and a
// Message-ID derived from the lead, so a repeat after a crash is recognisably the same message.
import type { Transporter } from 'nodemailer'
import type { DeliveryConfig } from '../../../config/delivery-config'
import type { DeliverableLead } from '../../store/stored-lead'
import { messageHtml, messageText, type MessageContext } from './lead-message'
import { type Channel, DeliveryError } from './channel'

/** SMTP waits: nodemailer's defaults are minutes, far longer than a lease. */
const SMTP_TIMEOUT_MS = 10_000

/** «<lead-42.1763900000000@example.ru>»: the same for every send of one lead. */
function leadMessageId(lead: DeliverableLead, publicUrl: string): string {
  return `<lead-${lead.id}.${Date.parse(lead.createdAt)}@${new URL(publicUrl).hostname}>`
}

function emailSubject(lead: DeliverableLead): string {
  return `Новая заявка с сайта: ${lead.username.replace(/\s+/g, ' ').trim()}`
}

export function emailChannel(config: NonNullable<DeliveryConfig['email']>, ctx: MessageContext): Channel {
  // nodemailer on the first message: a site without e-mail delivery never loads it.
  let transport: Promise<Transporter> | null = null
  const connect = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({
        url: config.smtpUrl,
        pool: true,
        maxConnections: 2,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
        disableFileAccess: true,
        disableUrlAccess: true,
      }),
    ))
  return {
    name: 'email',
    async send(lead) {
      try {
        const smtp = await connect()
        await smtp.sendMail({
          from: config.from,
          to: [...config.to],
          replyTo: lead.email,
          subject: emailSubject(lead),
          text: messageText(lead, ctx),
          html: messageHtml(lead, ctx),
          messageId: leadMessageId(lead, ctx.publicUrl),
          headers: { 'X-Lead-Id': String(lead.id) },
        })
      } catch (error) {
        const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string }
        // The server's own words (they name no secret); retried until the row gives up: a
        // wrong password or a full mailbox is fixed by people, then the next try goes through.
        throw new DeliveryError(`SMTP ${responseCode ?? code ?? 'error'}: ${message ?? String(error)}`)
      }
    },
    async close() {
      if (transport) (await transport).close()
    },
  }
}
