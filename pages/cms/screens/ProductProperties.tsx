import type { ProductPage } from '../../../src/site/types'

type Property = ProductPage['properties'][number]

/** Consecutive rows under one group heading (a list without groups is one nameless group). */
function grouped(properties: Property[]): { group: string | null; rows: Property[] }[] {
  const groups: { group: string | null; rows: Property[] }[] = []
  for (const row of properties) {
    const last = groups[groups.length - 1]
    if (last && last.group === row.group) last.rows.push(row)
    else groups.push({ group: row.group, rows: [row] })
  }
  return groups
}

/** The characteristics table: «name — value unit», under group headings when the rows have groups. */
export function ProductProperties({ properties }: { properties: Property[] }) {
  if (properties.length === 0) return null
  return (
    <section className="properties" aria-labelledby="properties-heading">
      <h2 id="properties-heading">Характеристики</h2>
      <table className="properties__table">
        {grouped(properties).map((group, g) => (
          <tbody key={g}>
            {group.group && (
              <tr>
                <th colSpan={2} scope="colgroup" className="properties__group">
                  {group.group}
                </th>
              </tr>
            )}
            {group.rows.map((row, i) => (
              <tr key={i}>
                <th scope="row">{row.name}</th>
                <td>
                  {row.value}
                  {row.unit && ` ${row.unit}`}
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </section>
  )
}
