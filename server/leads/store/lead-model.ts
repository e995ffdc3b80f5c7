// The leads as the generic data API reads them (GET /api/many/feedback …, admin only): which
// columns it may read and which rows it never sees. Defined here, with the repository, so that
// only the leads' own folder names their table; the model API runs the query
// (docs/contract.md §3).
import type { ModelDef } from '../../models/model-def'

export const LEAD_MODEL: ModelDef = {
  name: 'feedback',
  table: 'feedback',
  key: 'id',
  // Only these columns are ever read; the consent record and the spam mark stay inside.
  fields: new Map(
    Object.entries({
      id: { type: 'integer', nullable: false },
      username: { type: 'string', nullable: false },
      email: { type: 'string', nullable: false },
      phone: { type: 'string', nullable: false },
      createdAt: { type: 'string', nullable: false },
      sourceUrl: { type: 'string', nullable: true },
      productId: { type: 'integer', nullable: true },
      productTitle: { type: 'string', nullable: true },
      /** JSON object of the visit's utm_* tags, yclid and gclid */
      utm: { type: 'string', nullable: true },
      status: { type: 'string', nullable: false },
    } as const),
  ),
  relations: new Map(),
  defaultSelect: ['id', 'username', 'email', 'phone', 'createdAt'],
  providerTitle: 'username',
  adminOnly: true,
  // Spam kept for review stays in the table but out of the API and the CSV export.
  scope: (eb) => eb('spam', '=', 0),
  // Leads come in through POST /api/feedback (the lead intake) only.
  writable: false,
}
