import type { AdminLead } from '../../../src/admin/admin-leads'
import { formatRubles } from '../../../src/format/money'
import { ADMIN_PATHS } from '../../../src/site/paths'

const money = (rubles: number | null) => (rubles === null ? 'по запросу' : formatRubles(rubles))

/**
 * What a lead asked for, as it was when sent (docs/decisions/041-request-list.md): each product
 * with a link to its record, артикул, price, quantity and sum, and the total.
 */
export function LeadLines({ lead }: { lead: AdminLead }) {
  if (lead.lines.length === 0) return null
  return (
    <div className="lead-lines">
      <table className="lead-lines__table">
        <caption className="lead-lines__caption">Товары в заявке</caption>
        <thead>
          <tr>
            <th scope="col">Товар</th>
            <th scope="col">Цена</th>
            <th scope="col">Кол-во</th>
            <th scope="col">Сумма</th>
          </tr>
        </thead>
        <tbody>
          {lead.lines.map((line) => (
            <tr key={line.productId}>
              <td>
                <a href={ADMIN_PATHS.record(line.productId)}>{line.title}</a>
                {line.article && <span className="lead-lines__article">{` арт. ${line.article}`}</span>}
              </td>
              <td>{money(line.price)}</td>
              <td>{line.quantity}</td>
              <td>{money(line.sum)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Итого
            </th>
            <td>
              <strong>{money(lead.total)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  )
}
