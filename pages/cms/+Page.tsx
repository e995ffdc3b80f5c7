// https://vike.dev/Page — the record's typeId picks the screen.
import { useData } from 'vike-react/useData'
import type { Data } from './+data'
import { HomeScreen } from './screens/HomeScreen'
import { ProductScreen } from './screens/ProductScreen'
import { SectionScreen } from './screens/SectionScreen'
import { TextScreen } from './screens/TextScreen'

export function Page() {
  const page = useData<Data>()
  switch (page.typeId) {
    case 'index':
      return <HomeScreen page={page} />
    case 'section':
      return <SectionScreen page={page} />
    case 'product':
      return <ProductScreen page={page} />
    case 'page':
      return <TextScreen page={page} />
  }
}
