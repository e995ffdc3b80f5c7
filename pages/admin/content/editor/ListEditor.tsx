import type { ReactNode } from 'react'

interface ListEditorProps<T extends { key: string }> {
  /** «Слайды», «Преимущества». */
  title: string
  /** «Слайд», «Преимущество»: each item's legend with its number. */
  itemLabel: string
  addLabel: string
  items: T[]
  onChange: (items: T[]) => void
  create: () => T
  /** The item's own fields; `path` is its place in the write (`sliderItems.0`) for errors. */
  renderItem: (item: T, update: (item: T) => void, path: number) => ReactNode
}

/** An ordered list edited in place: add, edit, move up or down, delete. Saved with the record. */
export function ListEditor<T extends { key: string }>(props: ListEditorProps<T>) {
  const { title, itemLabel, addLabel, items, onChange, create, renderItem } = props

  function move(from: number, to: number) {
    const next = [...items]
    const [item] = next.splice(from, 1)
    next.splice(to, 0, ...(item ? [item] : []))
    onChange(next)
  }

  return (
    <fieldset className="list-editor">
      <legend className="list-editor__title">{title}</legend>
      {items.length === 0 && <p className="list-editor__empty">Пока пусто.</p>}
      <ol className="list-editor__items">
        {items.map((item, index) => (
          <li key={item.key} className="list-editor__item">
            <fieldset className="list-editor__fields">
              <legend>
                {itemLabel} {index + 1}
              </legend>
              {renderItem(item, (changed) => onChange(items.map((x) => (x.key === item.key ? changed : x))), index)}
            </fieldset>
            <div className="list-editor__buttons">
              {[
                { text: 'Выше', disabled: index === 0, run: () => move(index, index - 1) },
                { text: 'Ниже', disabled: index === items.length - 1, run: () => move(index, index + 1) },
                { text: 'Удалить', disabled: false, run: () => onChange(items.filter((x) => x.key !== item.key)) },
              ].map(({ text, disabled, run }) => (
                <button
                  key={text}
                  type="button"
                  className="button button--quiet button--small"
                  disabled={disabled}
                  onClick={run}
                  aria-label={`${itemLabel} ${index + 1}: ${text.toLowerCase()}`}
                >
                  {text}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button button--quiet button--small"
        onClick={() => onChange([...items, create()])}
      >
        {addLabel}
      </button>
    </fieldset>
  )
}
