// The no-JS form's answer when a lead cannot be accepted: the form page itself, rendered by Vike
// with the values as sent and the messages under the fields, instead of a JSON body. Nothing of
// the lead goes into the URL: it is rendered into this one response only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderPage } from 'vike/server'
import type { LeadFormState } from '../../../src/lead/lead-form-state'
import { LEAD_FORM_PATH } from '../../../src/lead/lead-form-state'
import type { Config } from '../../config'
import { sendPage } from '../../site/page-route'
import { contentSecurityPolicy, newNonce } from '../../site/csp'

export async function sendFormPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  leadFormState: LeadFormState,
  config: Pick<Config, 'mediaUrl' | 'metrikaId'>,
): Promise<FastifyReply> {
  try {
    const nonce = newNonce()
    const pageContext = await renderPage({
      cspNonce: nonce,
      urlOriginal: LEAD_FORM_PATH,
      headersOriginal: request.headers,
      content: app.content,
      leadFormState,
    })
    const { httpResponse } = pageContext
    if (!httpResponse || httpResponse.statusCode !== 200)
      throw new Error(`form page answered ${httpResponse?.statusCode}`)
    // The page holds what the visitor typed: never cache it anywhere.
    return sendPage(reply, httpResponse, (html) => contentSecurityPolicy(html, config, nonce), {
      status,
      headers: { 'cache-control': 'no-store' },
    })
  } catch (error) {
    request.log.error({ message: (error as Error).message }, 'lead form page failed to render')
    // Still not a JSON page: back to the empty form (a flag only, no personal data in the URL).
    return reply.code(303).header('location', `${LEAD_FORM_PATH}?oshibka=1`).send()
  }
}
