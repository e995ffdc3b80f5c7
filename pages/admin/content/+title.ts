export const title = 'Содержимое — управление сайтом'
