// A section's filters by characteristic in its GET form (docs/decisions/042-characteristics-and-filters.md):
// a checkbox per value with how many products hold it (`f.<id>`, several at once), two number
// fields of one name for a range (`r.<id>`: the server answers the pair with its canonical
// `min-max`). Plain HTML: it works without JavaScript.
import type { SectionFacet, SectionQuery } from '../../../src/site/section-query'

function label(facet: SectionFacet): string {
  return facet.unit ? `${facet.title}, ${facet.unit}` : facet.title
}

/** «0,75» as a Russian reader writes a number */
const shown = (n: number | null) => (n === null ? '' : String(n).replace('.', ','))

export function FacetFields({ facets, query }: { facets: readonly SectionFacet[]; query: SectionQuery }) {
  return facets.map((facet) => {
    if (facet.kind === 'range') {
      const chosen = query.ranges.find((r) => r.id === facet.id)
      return (
        <fieldset key={facet.id} className="listing-facet listing-facet--range">
          <legend>{label(facet)}</legend>
          <label>
            <span>от</span>
            <input
              {...NUMBER_INPUT}
              name={`r.${facet.id}`}
              defaultValue={chosen?.min ?? ''}
              placeholder={shown(facet.min)}
            />
          </label>
          <label>
            <span>до</span>
            <input
              {...NUMBER_INPUT}
              name={`r.${facet.id}`}
              defaultValue={chosen?.max ?? ''}
              placeholder={shown(facet.max)}
            />
          </label>
        </fieldset>
      )
    }
    const chosen = new Set(query.values.find((f) => f.id === facet.id)?.values ?? [])
    return (
      <fieldset key={facet.id} className="listing-facet">
        <legend>{label(facet)}</legend>
        <ul>
          {facet.values.map(({ value, count }) => (
            <li key={value}>
              <label>
                <input type="checkbox" name={`f.${facet.id}`} value={value} defaultChecked={chosen.has(value)} />
                <span>{`${value} (${count})`}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
    )
  })
}

const NUMBER_INPUT = { type: 'number', min: 0, step: 'any', inputMode: 'decimal' } as const
