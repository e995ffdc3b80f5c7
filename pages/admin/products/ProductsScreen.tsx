// «Товары» (issue 33): every product as a row of a table (a card on a phone), paged on the server by
// keyset, sorted by any column, filtered by section (with its subsections), availability,
// visibility, «без фото», «без цены», «без описания» and the search. The filter and the sort live in
// the URL, so a view can be bookmarked and shared. Prices and availability are edited in place;
// actions apply to the chosen rows or to every product of the filter; the price list of the view
// downloads as XLSX or CSV.
import './products.css'
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react'
import {
  PRODUCT_QUERY_KEYS,
  createProductsApi,
  type AuditEntry,
  type ProductPage,
  type SectionOption,
} from '../../../src/admin/admin-products'
import { ADMIN_API_PATHS } from '../../../src/site/paths'
import { useTimeZone } from '../layout/admin-context'
import { ProductActions } from './ProductActions'
import { ProductRowView } from './ProductRow'
import { ProductFilters } from './ProductFilters'
import { ChooseAll, ProductsAudit, ProductsHead } from './products-parts'

const COLUMNS: readonly [string, string | null][] = [
  ['Фото', null],
  ['Название', 'title'],
  ['Артикул', 'article'],
  ['Раздел', 'section'],
  ['Цена', 'price'],
  ['Старая цена', 'oldPrice'],
  ['Наличие', 'availability'],
  ['Видимость', 'state'],
  ['Изменён', 'updatedAt'],
]

function filterFromUrl(): URLSearchParams {
  const all = new URLSearchParams(window.location.search)
  const kept = new URLSearchParams()
  for (const key of PRODUCT_QUERY_KEYS) {
    const value = all.get(key)
    if (value) kept.set(key, value)
  }
  return kept
}

/** The price list of the products the filter shows, as a file. */
const priceListUrl = (format: 'xlsx' | 'csv', filter: URLSearchParams) =>
  `${format === 'xlsx' ? ADMIN_API_PATHS.priceListXlsx : ADMIN_API_PATHS.priceListCsv}${filter.size > 0 ? `?${filter}` : ''}`

export function ProductsScreen() {
  const id = useId()
  const timeZone = useTimeZone()
  const api = useMemo(() => createProductsApi(), [])
  const [filter, setFilter] = useState(filterFromUrl)
  const [pages, setPages] = useState<string[]>([])
  const [page, setPage] = useState<ProductPage | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [sections, setSections] = useState<SectionOption[]>([])
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [everything, setEverything] = useState(false)
  const [audit, setAudit] = useState<AuditEntry[]>([])
  const [reload, setReload] = useState(0)
  const [search, setSearch] = useState(filter.get('q') ?? '')

  useEffect(() => {
    api.sections().then(setSections, () => {})
  }, [api])

  useEffect(() => {
    const controller = new AbortController()
    const query = new URLSearchParams(filter)
    query.set('pageSize', '50')
    const after = pages.at(-1)
    if (after) query.set('after', after)
    api.page(query, controller.signal).then(
      (data) => {
        setPage(data)
        setProblem(null)
      },
      () => {
        if (!controller.signal.aborted) setProblem('Не удалось загрузить товары. Обновите страницу.')
      },
    )
    return () => controller.abort()
  }, [api, filter, pages, reload])

  // The log changes with the actions only, not with the filter or the page.
  useEffect(() => {
    api.audit().then(setAudit, () => {})
  }, [api, reload])

  /** A new filter: into the URL (a view can be shared), back to the first page, nothing chosen. */
  const change = useCallback((update: (next: URLSearchParams) => void) => {
    setFilter((current) => {
      const next = new URLSearchParams(current)
      update(next)
      const url = `${window.location.pathname}${next.size > 0 ? `?${next}` : ''}`
      window.history.replaceState(null, '', url)
      return next
    })
    setPages([])
    setSelected(new Set())
    setEverything(false)
  }, [])

  const set = (key: string, value: string | null) => change((next) => (value ? next.set(key, value) : next.delete(key)))

  function sortBy(key: string) {
    change((next) => {
      const same = next.get('sort') === key || (!next.get('sort') && key === 'title')
      next.set('sort', key)
      if (same && next.get('dir') !== 'desc') next.set('dir', 'desc')
      else next.delete('dir')
    })
  }

  function submitSearch(event: FormEvent) {
    event.preventDefault()
    set('q', search.trim() || null)
  }

  const rows = page?.data ?? []
  const total = page ? `${page.total}${page.totalOver ? '+' : ''}` : '…'
  const sortKey = filter.get('sort') ?? 'title'
  const desc = filter.get('dir') === 'desc'
  const targets = async () => (everything ? (await api.ids(filter)).ids : [...selected])
  const count = everything ? (page?.total ?? 0) : selected.size

  return (
    <div className="products">
      <h1>Товары</h1>
      <ProductFilters
        filter={filter}
        sections={sections}
        search={search}
        onSearch={setSearch}
        onSubmit={submitSearch}
        set={set}
        change={change}
        columns={COLUMNS}
      />

      <div className="admin-toolbar products__summary">
        <p role="status">Найдено товаров: {total}</p>
        <a className="button button--quiet button--small" href={priceListUrl('xlsx', filter)} download>
          Скачать прайс-лист (XLSX)
        </a>
        <a className="button button--quiet button--small" href={priceListUrl('csv', filter)} download>
          CSV
        </a>
      </div>

      {problem && <p className="admin-error">{problem}</p>}
      <ChooseAll
        allOnPage={rows.length > 0 && rows.every((r) => selected.has(r.id))}
        onAllOnPage={(checked) => setSelected(checked ? new Set(rows.map((r) => r.id)) : new Set())}
        everything={everything}
        onEverything={setEverything}
        total={total}
      />

      <ProductActions
        api={api}
        sections={sections}
        targets={targets}
        count={count}
        onDone={() => {
          setSelected(new Set())
          setEverything(false)
          setReload((n) => n + 1)
        }}
      />

      <table className="products__table" aria-labelledby={`${id}-caption`}>
        <caption id={`${id}-caption`}>Товары, {total}</caption>
        <ProductsHead columns={COLUMNS} sortKey={sortKey} desc={desc} onSort={sortBy} />
        <tbody>
          {rows.map((row) => (
            <ProductRowView
              key={row.id}
              row={row}
              api={api}
              timeZone={timeZone}
              selected={everything || selected.has(row.id)}
              onSelect={(checked) =>
                setSelected((current) => {
                  const next = new Set(current)
                  if (checked) next.add(row.id)
                  else next.delete(row.id)
                  return next
                })
              }
              onChanged={() => setReload((n) => n + 1)}
            />
          ))}
        </tbody>
      </table>
      {page && rows.length === 0 && <p>Товаров по этому фильтру нет.</p>}
      <nav className="admin-toolbar" aria-label="Страницы товаров">
        {pages.length > 0 && (
          <button type="button" className="button button--quiet" onClick={() => setPages([])}>
            В начало
          </button>
        )}
        {page?.next && (
          <button type="button" className="button" onClick={() => setPages((p) => [...p, page.next!])}>
            Дальше
          </button>
        )}
      </nav>

      <ProductsAudit audit={audit} timeZone={timeZone} />
    </div>
  )
}
