/* evalball_box.c - placeholder */
