package main

import (
	"context"
	"time"
)

func Example() {
	_ = run(context.Background(), time.Date(2026, 3, 6, 12, 0, 0, 0, time.UTC))
	// Output:
	// Upcoming events (en), 3 in all:
	//   Sun 08 Mar 20:30  Gypsy jazz night   Le Petit Journal  Jazz
	//   Sun 15 Mar 20:30  Swing dance class  Le Petit Journal  Jazz
	//   Sun 22 Mar 20:30  Jam session        Le Petit Journal  Jazz
	// Upcoming events (fr), 3 in all:
	//   Sun 08 Mar 20:30  Soirée jazz manouche  Le Petit Journal  Jazz
	//   Sun 15 Mar 20:30  Cours de danse swing  Le Petit Journal  Jazz
	//   Sun 22 Mar 20:30  Bœuf musical          Le Petit Journal  Jazz
}
