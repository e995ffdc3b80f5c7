export const title = 'Заявки — управление сайтом'
