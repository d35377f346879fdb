import { Setting } from '../settings/setting.entity';
import { User } from '../users/user.entity';

/** Every entity the data source maps. */
export const ENTITIES = [User, Setting];
