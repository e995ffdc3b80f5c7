import { Image } from '../../../src/components/Image'
import type { HomePage } from '../../../src/site/types'

export function Advantages({ items }: { items: HomePage['advantages'] }) {
  if (items.length === 0) return null
  return (
    <section className="advantages" aria-labelledby="advantages-title">
      <h2 id="advantages-title">Почему выбирают нас</h2>
      <ul className="advantages__list">
        {items.map((item) => (
          <li className="advantages__item" key={item.id}>
            <Image src={item.image} alt="" width={64} className="advantages__icon" />
            <h3>{item.title}</h3>
            {item.description && <p>{item.description}</p>}
          </li>
        ))}
      </ul>
    </section>
  )
}
