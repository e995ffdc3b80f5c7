// The no-JS form's answer when a lead cannot be accepted: the form page itself, rendered with the
// values as sent and the messages under the fields, instead of a JSON body. Nothing of the lead
// goes into the URL: it is rendered into this one response only, which is never cached.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { LeadFormState } from '../../../src/lead/lead-form-state'
import { PATHS } from '../../../src/site/paths'

export async function sendFormPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  leadFormState: LeadFormState,
  /** The page the form was on: the plain form (`/zayavka`, `?tovar=N` for a product's) or the request list */
  url: string = PATHS.leadForm,
): Promise<FastifyReply> {
  try {
    return await app.pages.answer(request, reply, { url, context: { leadFormState }, status })
  } catch (error) {
    request.log.error({ message: (error as Error).message }, 'lead form page failed to render')
    // Still not a JSON page: back to the empty form (a flag only, no personal data in the URL).
    const back = url.startsWith(PATHS.requestList) ? PATHS.requestList : PATHS.leadForm
    return reply.code(303).header('location', `${back}?oshibka=1`).send()
  }
}
