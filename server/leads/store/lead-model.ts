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
      /** The lines' total in rubles when every line has a price, else null (docs/decisions/041-request-list.md) */
      total: { type: 'money', nullable: true },
      /** The manager's note (never sent to a delivery channel) */
      note: { type: 'string', nullable: true },
    } as const),
  ),
  // What the lead asked for, as it was when sent: `select: { lines: { select: { title: true } } }`.
  relations: new Map([
    [
      'lines',
      {
        name: 'lines',
        model: 'leadLines',
        kind: 'many',
        localKey: 'id',
        foreignKey: 'feedbackId',
        defaultOrder: [['position', 'asc']],
      },
    ],
  ]),
  defaultSelect: ['id', 'username', 'email', 'phone', 'createdAt'],
  providerTitle: 'username',
  adminOnly: true,
  // Spam kept for review stays in the table but out of the API and the CSV export.
  scope: (eb) => eb('spam', '=', 0),
  // Leads come in through POST /api/feedback (the lead intake) only.
  writable: false,
}

/** A lead's lines, admin only and read-only like the leads (written by the intake alone). */
export const LEAD_LINE_MODEL: ModelDef = {
  name: 'leadLines',
  table: 'leadLine',
  key: 'id',
  fields: new Map(
    Object.entries({
      id: { type: 'integer', nullable: false },
      feedbackId: { type: 'integer', nullable: false },
      position: { type: 'integer', nullable: false },
      productId: { type: 'integer', nullable: false },
      title: { type: 'string', nullable: false },
      article: { type: 'string', nullable: true },
      price: { type: 'money', nullable: true },
      quantity: { type: 'integer', nullable: false },
      sum: { type: 'money', nullable: true },
    } as const),
  ),
  relations: new Map(),
  defaultSelect: ['productId', 'title', 'article', 'price', 'quantity', 'sum'],
  providerTitle: 'title',
  adminOnly: true,
  writable: false,
}
