export const title = 'Запись — управление сайтом'
